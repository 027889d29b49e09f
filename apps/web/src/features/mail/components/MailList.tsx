import { List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { MailText } from '../../../components/MailText';

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
            <Typography.Text strong>{m.subject}</Typography.Text>{' '}
            <Tag>{m.status}</Tag>
            <div className="muted">
              {t('to')}: {m.to} · {dayjs(m.createdAt).format('YYYY-MM-DD HH:mm:ss')}
            </div>
            <MailText text={m.text} />
          </div>
        </List.Item>
      )}
    />
  );
}
