import { useRef } from 'react';
import { Button, Empty, Space, Typography } from 'antd';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { messageOf } from '../../../lib/errors';
import type { OrderAttachment } from '../api/types';
import { useSaveAttachments } from '../api/useOrderMutations';
import { ATTACHMENT_ACCEPT, checkAttachments } from '../lib/attachments';
import { AttachmentLink } from './AttachmentLink';
import { PlainList } from './PlainList';
import { formatDateTime } from '../../../lib/dates';

/** Files either side added to the order (photos, notes, pdf), with an upload for more. */
export function OrderAttachments({
  orderCode,
  attachments,
}: {
  orderCode: string;
  attachments: readonly OrderAttachment[];
}) {
  const { t } = useTranslation('orders');
  const input = useRef<HTMLInputElement>(null);
  const upload = useSaveAttachments(orderCode, {
    onSuccess: (res) => notify.success(t('attachment.uploaded', { count: res.list.length })),
    onError: (err) => notify.error(messageOf(err, errorText)),
  });

  const pick = (picked: File[]) => {
    const { ok, tooLarge, badFormat } = checkAttachments(picked);
    if (tooLarge.length) notify.error(t('attachment.tooLarge', { names: tooLarge.map((f) => f.name).join(', ') }));
    if (badFormat.length) notify.error(t('attachment.badFormat', { names: badFormat.map((f) => f.name).join(', ') }));
    if (ok.length) upload.mutate(ok);
  };

  return (
    <div data-testid="order-attachments">
      <Space style={{ marginBottom: 12 }} wrap>
        <Button
          icon={<UploadOutlined aria-hidden />}
          loading={upload.isPending}
          data-testid="order-attachment-upload"
          onClick={() => input.current?.click()}
        >
          {t('attachment.upload')}
        </Button>
        <Typography.Text type="secondary">{t('attachment.hint')}</Typography.Text>
      </Space>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={ATTACHMENT_ACCEPT}
        data-testid="order-attachment-input"
        aria-label={t('attachment.upload')}
        onChange={(e) => {
          pick([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      {attachments.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('attachment.none')} />
      ) : (
        <PlainList
          items={attachments}
          itemKey={(a) => a.code}
          itemProps={(a) => ({ 'data-testid': `order-attachment-${a.code}` })}
          renderItem={(a) => (
            <>
              <AttachmentLink attachment={a} />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {a.mine ? t('attachment.mine') : a.organizationName} · {formatDateTime(a.createdAt)}
              </Typography.Text>
            </>
          )}
        />
      )}
    </div>
  );
}
