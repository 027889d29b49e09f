import { useState } from 'react';
import { Card, Pagination } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listOutboxQuery } from '../api/listOutbox';
import { MailList } from '../components/MailList';

export default function OutboxPage() {
  const { t } = useTranslation('mail');
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const outbox = useQuery(listOutboxQuery(page));
  return (
    <Card title={t('outbox')} data-testid="outbox">
      <MailList mails={outbox.data?.list ?? []} loading={outbox.isFetching} />
      <Pagination
        className="pager"
        current={page.pageNum}
        pageSize={page.pageSize}
        total={outbox.data?.total ?? 0}
        onChange={(pageNum, pageSize) => setPage({ pageNum, pageSize })}
      />
    </Card>
  );
}
