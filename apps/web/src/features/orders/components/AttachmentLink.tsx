import { useState } from 'react';
import { Button } from 'antd';
import PaperClipOutlined from '@ant-design/icons/PaperClipOutlined';
import { attachmentLink } from '../api/attachmentLink';
import type { OrderAttachment } from '../api/types';
import { downloadUrl } from '../../../lib/download';
import { sizeText } from '../../../lib/sizes';

/** An order attachment: the link is signed and short-lived, so it is asked for on click. */
export function AttachmentLink({ attachment }: { attachment: OrderAttachment }) {
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    try {
      const link = await attachmentLink(attachment.code);
      downloadUrl(link.url, attachment.name);
    } catch {
      /* lib/http has shown why */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="small"
      type="link"
      icon={<PaperClipOutlined aria-hidden />}
      loading={busy}
      data-testid={`attachment-${attachment.code}`}
      onClick={() => void open()}
      style={{ paddingInline: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}
    >
      {attachment.name} ({sizeText(attachment.size)})
    </Button>
  );
}
