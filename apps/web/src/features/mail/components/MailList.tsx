import { List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MailText } from '../../../components/MailText';
import { formatDateTime } from '../../../lib/dates';

export interface Mail {
  id: number;
  to: string;
  subject: string;
  text: string;
  status: string;
  createdAt: string;
}

export function MailList({ mails, loading }: { mails: Mail[]; loading?: boolean }) {
  const { t } = useTranslation('mail');
  return (
    <List
      loading={loading}
      dataSource={mails}
      locale={{ emptyText: t('empty') }}
      renderItem={(m) => (
        <List.Item key={m.id} data-testid="mail-item">
          <div className="mail-item">
            <Typography.Text strong>{m.subject}</Typography.Text> <Tag>{m.status}</Tag>
            <div className="muted">
              {t('to')}: {m.to} · {formatDateTime(m.createdAt)}
            </div>
            <MailText text={m.text} />
          </div>
        </List.Item>
      )}
    />
  );
}
