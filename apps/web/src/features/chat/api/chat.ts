import type { ChatConversation, ChatMessage, ChatRef, OrderAttachment } from '@portal/contracts';
import { http, postForm, type Download } from '../../../lib/http';

/** Query keys of the chat screen. */
export const chatKeys = {
  all: ['chat'] as const,
  conversations: ['chat', 'conversations'] as const,
  messages: (code: string) => ['chat', 'messages', code] as const,
  search: (code: string, q: string) => ['chat', 'search', code, q] as const,
};

export const listConversations = () =>
  http.post<{ list: ChatConversation[]; unread: number }>('chat/conversations', {}, { silent: true });
export const listMessages = (conversationCode: string, before?: number) =>
  http.post<{ list: ChatMessage[]; hasMore: boolean }>('chat/messages', { conversationCode, before, limit: 50 });
export const sendMessage = (body: {
  conversationCode: string;
  clientId: string;
  body: string;
  refs: ChatRef[];
  attachmentCodes: string[];
}) => http.write<ChatMessage>('chat/send', body);
export const markRead = (conversationCode: string, upTo: number) =>
  http.write<{ upTo: number }>('chat/read', { conversationCode, upTo }, { silent: true });
export const searchMessages = (conversationCode: string, q: string) =>
  http.post<{ list: ChatMessage[] }>('chat/search', { conversationCode, q });
export const exportConversation = (conversationCode: string) =>
  http.post<Download>('chat/export', { conversationCode });
export const downloadAttachment = (attachmentCode: string) =>
  http.post<Download>('chat/attachment', { attachmentCode });
export function uploadAttachments(conversationCode: string, files: File[]) {
  const form = new FormData();
  form.append('conversationCode', conversationCode);
  for (const f of files) form.append('file', f, f.name);
  return postForm<{ list: OrderAttachment[] }>('chat/attachments', form);
}
