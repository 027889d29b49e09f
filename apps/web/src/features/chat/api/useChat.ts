import { useEffect, useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { openChatLive, type ChatSignal } from '../lib/chatLive';
import { chatKeys, markRead, sendMessage } from './chat';

type Result<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/** Sends a message; the conversation's messages and every unread count refresh. */
export function useSendMessage(reactions?: Reactions<Result<typeof sendMessage>, Parameters<typeof sendMessage>[0]>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: chatKeys.all }) }),
    mutationFn: sendMessage,
  });
}

/** Moves the read mark; the unread counts refresh. */
export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh<{ upTo: number }, { code: string; upTo: number }>(undefined, {
      success: () => void qc.invalidateQueries({ queryKey: chatKeys.conversations }),
    }),
    mutationFn: (v: { code: string; upTo: number }) => markRead(v.code, v.upTo),
  });
}

/**
 * The live socket while the chat screen is open: a new message refreshes its conversation and the unread counts, a
 * read mark the receipts; every signal is also handed to `onSignal` (typing marks, pop-ups).
 */
export function useChatLive(onSignal: (s: ChatSignal) => void) {
  const qc = useQueryClient();
  const handler = useRef(onSignal);
  handler.current = onSignal;
  const live = useRef<ReturnType<typeof openChatLive> | null>(null);
  useEffect(() => {
    live.current = openChatLive((s) => {
      if (s.type !== 'typing') void qc.invalidateQueries({ queryKey: chatKeys.conversations });
      if (s.type === 'message') void qc.invalidateQueries({ queryKey: chatKeys.messages(s.conversationCode) });
      handler.current(s);
    });
    return () => live.current?.close();
  }, [qc]);
  return live;
}
