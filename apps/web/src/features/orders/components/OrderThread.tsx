import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Empty, Input, Space, Spin, Tag, theme, Typography } from 'antd';
import PaperClipOutlined from '@ant-design/icons/PaperClipOutlined';
import SendOutlined from '@ant-design/icons/SendOutlined';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { fallbackPoll } from '../../../lib/live';
import { messageOf } from '../../../lib/errors';
import { orderKeys } from '../api/keys';
import { listOrderMessages } from '../api/listOrderMessages';
import type { OrderMessage } from '../api/types';
import { useSendMessage } from '../api/useOrderMutations';
import { ATTACHMENT_ACCEPT, checkAttachments, MAX_MESSAGE_ATTACHMENTS, threadOrder } from '../lib/attachments';
import { authorLine } from '../lib/author';
import { AttachmentLink } from './AttachmentLink';
import { formatDateTime } from '../../../lib/dates';
import { sizeText } from '../../../lib/sizes';

const PAGE_SIZE = 30;
/** While the thread is on screen and the live socket is down, new messages from the other side appear within this time. */
const POLL_MS = 10_000;

/** The conversation between the clinic and the laboratory about one order. */
export function OrderThread({ orderCode, open }: { orderCode: string; open: boolean }) {
  const { t } = useTranslation(['orders', 'retention']);
  const { token } = theme.useToken();
  const [content, setContent] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const log = useRef<HTMLDivElement>(null);

  const thread = useInfiniteQuery({
    queryKey: orderKeys.thread(orderCode),
    queryFn: ({ pageParam }) => listOrderMessages(orderCode, pageParam, PAGE_SIZE),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (all.length * PAGE_SIZE < last.total ? all.length + 1 : undefined),
    refetchInterval: fallbackPoll(POLL_MS),
  });
  const messages = useMemo(() => threadOrder(thread.data?.pages ?? []), [thread.data]);
  const newestId = messages.at(-1)?.id;

  // Keep the newest message in view when one arrives (or is sent); only the thread scrolls, not the page.
  useEffect(() => {
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [newestId]);

  // Files go up first; the message then names them by their codes. The hook refreshes the thread and the order.
  const send = useSendMessage(orderCode, {
    onSuccess: () => {
      setContent('');
      setFiles([]);
    },
    onError: (err) => notify.error(messageOf(err, errorText)),
  });

  const addFiles = (picked: File[]) => {
    const { ok, tooLarge, badFormat } = checkAttachments(picked);
    if (tooLarge.length) notify.error(t('attachment.tooLarge', { names: tooLarge.map((f) => f.name).join(', ') }));
    if (badFormat.length) notify.error(t('attachment.badFormat', { names: badFormat.map((f) => f.name).join(', ') }));
    const next = [...files, ...ok];
    if (next.length > MAX_MESSAGE_ATTACHMENTS) notify.error(t('thread.tooManyFiles', { n: MAX_MESSAGE_ATTACHMENTS }));
    setFiles(next.slice(0, MAX_MESSAGE_ATTACHMENTS));
  };

  const canSend = (content.trim() !== '' || files.length > 0) && !send.isPending;
  const bubble = (m: OrderMessage) => (
    <div
      key={m.id}
      data-testid="thread-message"
      data-mine={m.mine ? 'true' : 'false'}
      style={{ display: 'flex', justifyContent: m.mine ? 'flex-end' : 'flex-start', marginBottom: 12 }}
    >
      <div
        style={{
          maxWidth: '85%',
          padding: '8px 12px',
          borderRadius: token.borderRadiusLG,
          background: m.mine ? token.colorPrimaryBg : token.colorFillTertiary,
        }}
      >
        <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
          {authorLine(m.senderName, m.senderOrganization, t('common:formerUser'))} ·{' '}
          <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
        </Typography.Text>
        {m.content ? (
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{m.content}</Typography.Paragraph>
        ) : null}
        {m.attachments.length ? (
          <Space wrap size={4} style={{ marginTop: 4 }}>
            {m.attachments.map((a) => (
              <AttachmentLink key={a.code} attachment={a} />
            ))}
          </Space>
        ) : null}
      </div>
    </div>
  );

  return (
    <div data-testid="order-thread">
      <div
        ref={log}
        style={{ maxHeight: 420, overflowY: 'auto', marginBottom: 12 }}
        role="log"
        aria-live="polite"
        aria-label={t('thread.title')}
      >
        {thread.hasNextPage ? (
          <div style={{ textAlign: 'center', marginBottom: 8 }}>
            <Button
              size="small"
              type="link"
              loading={thread.isFetchingNextPage}
              onClick={() => void thread.fetchNextPage()}
              data-testid="thread-older"
            >
              {t('thread.older')}
            </Button>
          </div>
        ) : null}
        {thread.isPending ? <Spin /> : null}
        {thread.isError && !thread.data ? (
          <Alert type="error" showIcon title={messageOf(thread.error, errorText)} />
        ) : null}
        {!thread.isPending && messages.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('thread.empty')} />
        ) : null}
        {messages.map(bubble)}
      </div>
      {open ? (
        <>
          <Input.TextArea
            data-testid="thread-input"
            aria-label={t('thread.input')}
            placeholder={t('thread.placeholder')}
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={2000}
            value={content}
            onChange={(e) => setContent(e.target.value)}
            onKeyDown={(e) => {
              // Ctrl/Cmd+Enter sends; Enter alone makes a new line.
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && canSend) {
                e.preventDefault();
                send.mutate({ content, files });
              }
            }}
          />
          {files.length ? (
            <Space wrap size={4} style={{ marginTop: 8 }} data-testid="thread-files">
              {files.map((f, i) => (
                <Tag key={`${f.name}-${i}`} closable onClose={() => setFiles((prev) => prev.filter((_, j) => j !== i))}>
                  {f.name} ({sizeText(f.size)})
                </Tag>
              ))}
            </Space>
          ) : null}
          <Space style={{ marginTop: 8, width: '100%', justifyContent: 'space-between' }}>
            <Button
              icon={<PaperClipOutlined aria-hidden />}
              data-testid="thread-attach"
              onClick={() => fileInput.current?.click()}
              disabled={send.isPending}
            >
              {t('thread.attach')}
            </Button>
            <Button
              type="primary"
              icon={<SendOutlined aria-hidden />}
              data-testid="thread-send"
              disabled={!canSend}
              loading={send.isPending}
              onClick={() => send.mutate({ content, files })}
            >
              {t('thread.send')}
            </Button>
          </Space>
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            accept={ATTACHMENT_ACCEPT}
            data-testid="thread-file-input"
            aria-label={t('thread.attach')}
            onChange={(e) => {
              addFiles([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </>
      ) : (
        <Alert type="info" showIcon data-testid="thread-read-only" title={t('retention:threadReadOnly')} />
      )}
    </div>
  );
}
