import { useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Button, Card, Empty, Input, List, Select, Space, Tag, Typography } from 'antd';
import notification from 'antd/es/notification';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CHAT_LIMITS, CHAT_POPUP_MS, type ChatMessage, type ChatRef, type OrderAttachment } from '@portal/contracts';
import { Access } from '../../../components/Access';
import { formatDateTime } from '../../../lib/dates';
import { saveBlob } from '../../../lib/download';
import { useSession } from '../../../lib/session';
import {
  chatKeys,
  downloadAttachment,
  exportConversation,
  listConversations,
  listMessages,
  searchMessages,
  uploadAttachments,
} from '../api/chat';
import { useChatLive, useMarkRead, useSendMessage } from '../api/useChat';
import type { ChatSignal } from '../lib/chatLive';
import { newClientId } from '../lib/clientId';

/** The translation namespaces the route loads with this page. */
export const namespaces = ['chat'];

/** A typing mark is sent at most this often while the user types. */
const TYPING_EVERY_MS = 3_000;

const refPath = (r: ChatRef) =>
  r.kind === 'order' ? `/order-management/detail/${r.code}` : `/case-management/detail/${r.code}`;

/** Chat with partner organizations and with support: conversations, messages, live updates. */
export default function ChatPage() {
  const { t } = useTranslation('chat');
  const { user } = useSession();
  // A chat notice opens its conversation: `?conversation=<code>`.
  const [params] = useSearchParams();
  const asked = params.get('conversation');
  const [selected, setSelected] = useState<string | null>(asked);
  useEffect(() => {
    if (asked) setSelected(asked);
  }, [asked]);
  const [typing, setTyping] = useState<{ code: string; name: string; until: number } | null>(null);
  const [popup, holder] = notification.useNotification({ placement: 'topRight', maxCount: 3 });
  const conversations = useQuery({ queryKey: chatKeys.conversations, queryFn: listConversations });
  const list = conversations.data?.list ?? [];
  const current = list.find((c) => c.code === selected) ?? list[0];
  const state = useRef({ current: current?.code, list });
  state.current = { current: current?.code, list };
  const live = useChatLive((s: ChatSignal) => {
    if (s.type === 'typing') {
      setTyping({ code: s.conversationCode, name: s.name, until: Date.now() + s.holdMs });
      return;
    }
    if (s.type !== 'message') return;
    setTyping((x) => (x?.code === s.conversationCode ? null : x));
    if (s.fromOrganization === user?.organization.code || s.conversationCode === state.current.current) return;
    // A message in another conversation pops up for the spec's 3,000 ms.
    popup.open({
      key: `chat-${s.messageId}`,
      title: t('newMessage'),
      description: state.current.list.find((c) => c.code === s.conversationCode)?.title ?? '',
      duration: CHAT_POPUP_MS / 1000,
      pauseOnHover: false,
      role: 'status',
      props: { 'data-testid': 'chat-popup' },
      onClick: () => setSelected(s.conversationCode),
    });
  });

  useEffect(() => {
    if (!typing) return;
    const timer = setTimeout(() => setTyping(null), Math.max(0, typing.until - Date.now()));
    return () => clearTimeout(timer);
  }, [typing]);

  return (
    <Card title={t('title')} data-testid="chat-page">
      {holder}
      {/* Side by side where there is room; on a phone the conversation goes under the list. */}
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, minHeight: 480 }}>
        <List
          style={{ flex: '1 1 280px', maxWidth: 360 }}
          bordered
          loading={conversations.isLoading}
          dataSource={list}
          locale={{ emptyText: t('noConversations') }}
          renderItem={(c) => (
            <List.Item
              data-testid={`chat-conversation-${c.code}`}
              onClick={() => setSelected(c.code)}
              style={{
                cursor: 'pointer',
                background: c.code === current?.code ? 'var(--ant-color-fill-secondary)' : '',
              }}
            >
              <List.Item.Meta
                title={c.kind === 'support' ? t('support', { name: c.title }) : c.title}
                description={c.readOnly ? <Tag>{t('readOnly')}</Tag> : null}
              />
              <Badge count={c.unread} data-testid="chat-unread" />
            </List.Item>
          )}
        />
        <div style={{ flex: '999 1 300px', minWidth: 0 }}>
          {current ? (
            <Conversation
              key={current.code}
              code={current.code}
              readOnly={current.readOnly}
              otherReadUpTo={current.otherReadUpTo}
              unread={current.unread}
              typingName={typing?.code === current.code ? typing.name : null}
              onTyping={() => live.current?.typing(current.code)}
            />
          ) : (
            <Empty description={t('pick')} />
          )}
        </div>
      </div>
    </Card>
  );
}

function Conversation(props: {
  code: string;
  readOnly: boolean;
  otherReadUpTo: number;
  unread: number;
  typingName: string | null;
  onTyping: () => void;
}) {
  const { code, readOnly, otherReadUpTo, unread } = props;
  const { t } = useTranslation('chat');
  const [older, setOlder] = useState<{ list: ChatMessage[]; hasMore: boolean } | null>(null);
  const [query, setQuery] = useState('');
  const page = useQuery({ queryKey: chatKeys.messages(code), queryFn: () => listMessages(code) });
  const found = useQuery({
    queryKey: chatKeys.search(code, query),
    queryFn: () => searchMessages(code, query),
    enabled: query !== '',
  });
  const messages = useMemo(() => [...(older?.list ?? []), ...(page.data?.list ?? [])], [older, page.data]);
  const hasMore = older ? older.hasMore : (page.data?.hasMore ?? false);
  const newest = page.data?.list.at(-1)?.id ?? 0;

  // Shown is read: the mark moves to the newest message on screen.
  const { mutate: read } = useMarkRead();
  useEffect(() => {
    if (newest > 0 && unread > 0) read({ code, upTo: newest });
  }, [code, newest, unread, read]);

  const loadOlder = async () => {
    const first = messages[0];
    if (!first) return;
    const more = await listMessages(code, first.id);
    setOlder({ list: [...more.list, ...(older?.list ?? [])], hasMore: more.hasMore });
  };
  const exportCsv = async () => {
    const file = await exportConversation(code);
    saveBlob(file.blob, file.filename ?? 'chat.csv');
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Input.Search
          allowClear
          maxLength={CHAT_LIMITS.searchChars}
          placeholder={t('search')}
          aria-label={t('search')}
          onSearch={(v) => setQuery(v.trim())}
          data-testid="chat-search"
          style={{ width: 260 }}
        />
        <Access permission="chat:export">
          <Button onClick={() => void exportCsv()} data-testid="chat-export">
            {t('export')}
          </Button>
        </Access>
      </Space>
      {query ? (
        <MessageList
          messages={found.data?.list ?? []}
          otherReadUpTo={otherReadUpTo}
          empty={t('noResults')}
          testId="chat-results"
        />
      ) : (
        <>
          {hasMore && <Button onClick={() => void loadOlder()}>{t('older')}</Button>}
          <MessageList
            messages={messages}
            otherReadUpTo={otherReadUpTo}
            empty={t('noMessages')}
            testId="chat-messages"
          />
        </>
      )}
      {props.typingName && (
        <Typography.Text type="secondary" data-testid="chat-typing">
          {t('typing', { name: props.typingName })}
        </Typography.Text>
      )}
      {readOnly ? (
        <Typography.Text type="secondary" data-testid="chat-read-only">
          {t('readOnlyNote')}
        </Typography.Text>
      ) : (
        <Access permission="chat:send">
          <Composer code={code} onTyping={props.onTyping} onSent={() => setOlder(null)} />
        </Access>
      )}
    </Space>
  );
}

function MessageList(props: { messages: ChatMessage[]; otherReadUpTo: number; empty: string; testId: string }) {
  const { t } = useTranslation('chat');
  const open = async (a: OrderAttachment) => {
    const file = await downloadAttachment(a.code);
    saveBlob(file.blob, file.filename ?? a.name);
  };
  return (
    <List
      data-testid={props.testId}
      dataSource={props.messages}
      locale={{ emptyText: props.empty }}
      style={{ maxHeight: 420, overflowY: 'auto' }}
      renderItem={(m) => (
        <List.Item data-testid="chat-message" style={{ justifyContent: m.mine ? 'flex-end' : 'flex-start' }}>
          <div style={{ maxWidth: '80%', textAlign: m.mine ? 'right' : 'left' }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {m.senderName} · {m.senderOrganization} · {formatDateTime(m.createdAt)}
            </Typography.Text>
            {m.body && <div style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{m.body}</div>}
            {m.refs.map((r) => (
              <Tag key={`${r.kind}:${r.code}`}>
                <Link to={refPath(r)}>{t(r.kind === 'order' ? 'refOrder' : 'refCase', { code: r.code })}</Link>
              </Tag>
            ))}
            {m.attachments.map((a) => (
              <Button key={a.code} type="link" size="small" onClick={() => void open(a)}>
                {a.name}
              </Button>
            ))}
            {m.mine && m.id <= props.otherReadUpTo && (
              <div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="chat-read-mark">
                  {t('read')}
                </Typography.Text>
              </div>
            )}
          </div>
        </List.Item>
      )}
    />
  );
}

function Composer(props: { code: string; onTyping: () => void; onSent: () => void }) {
  const { t } = useTranslation('chat');
  const [text, setText] = useState('');
  const [refs, setRefs] = useState<ChatRef[]>([]);
  const [refKind, setRefKind] = useState<ChatRef['kind']>('order');
  const [refCode, setRefCode] = useState('');
  const [files, setFiles] = useState<OrderAttachment[]>([]);
  const sending = useSendMessage();
  // Kept until the message is stored: a retry after a failure sends the same id, so nothing is stored twice.
  const clientId = useRef(newClientId());
  const lastTyping = useRef(0);
  const picker = useRef<HTMLInputElement>(null);

  const send = () =>
    sending.mutate(
      {
        conversationCode: props.code,
        clientId: clientId.current,
        body: text,
        refs,
        attachmentCodes: files.map((f) => f.code),
      },
      {
        onSuccess: () => {
          clientId.current = newClientId();
          setText('');
          setRefs([]);
          setFiles([]);
          props.onSent();
        },
      },
    );
  const attach = async (picked: FileList | null) => {
    if (!picked?.length) return;
    const saved = await uploadAttachments(props.code, [...picked]);
    setFiles((f) => [...f, ...saved.list]);
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Input.TextArea
        value={text}
        maxLength={CHAT_LIMITS.messageChars}
        autoSize={{ minRows: 2, maxRows: 6 }}
        placeholder={t('placeholder')}
        aria-label={t('placeholder')}
        data-testid="chat-input"
        onChange={(e) => {
          setText(e.target.value);
          if (Date.now() - lastTyping.current > TYPING_EVERY_MS) {
            lastTyping.current = Date.now();
            props.onTyping();
          }
        }}
        onPressEnter={(e) => {
          if (!e.shiftKey) {
            e.preventDefault();
            send();
          }
        }}
      />
      <Space wrap>
        {refs.map((r, i) => (
          <Tag key={`${r.kind}:${r.code}`} closable onClose={() => setRefs((x) => x.filter((_, j) => j !== i))}>
            {t(r.kind === 'order' ? 'refOrder' : 'refCase', { code: r.code })}
          </Tag>
        ))}
        {files.map((f) => (
          <Tag key={f.code} closable onClose={() => setFiles((x) => x.filter((y) => y.code !== f.code))}>
            {f.name}
          </Tag>
        ))}
      </Space>
      <Space wrap>
        <Select
          value={refKind}
          aria-label={t('addLink')}
          onChange={setRefKind}
          style={{ width: 110 }}
          options={[
            { value: 'order', label: t('order') },
            { value: 'case', label: t('case') },
          ]}
        />
        <Input
          value={refCode}
          onChange={(e) => setRefCode(e.target.value.trim())}
          placeholder={t('linkCode')}
          aria-label={t('linkCode')}
          style={{ width: 160 }}
          maxLength={64}
        />
        <Button
          disabled={!refCode || refs.length >= CHAT_LIMITS.refs}
          onClick={() => {
            setRefs((x) => [...x, { kind: refKind, code: refCode }]);
            setRefCode('');
          }}
        >
          {t('addLink')}
        </Button>
        <input
          ref={picker}
          type="file"
          multiple
          style={{ display: 'none' }}
          onChange={(e) => {
            void attach(e.target.files);
            e.target.value = '';
          }}
        />
        <Button onClick={() => picker.current?.click()} data-testid="chat-attach">
          {t('attach')}
        </Button>
        <Button
          type="primary"
          loading={sending.isPending}
          disabled={!text.trim() && !refs.length && !files.length}
          onClick={send}
          data-testid="chat-send"
        >
          {t('send')}
        </Button>
      </Space>
    </Space>
  );
}
