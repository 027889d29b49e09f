import { Card, Pagination } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listOutboxQuery } from '../api/listOutbox';
import { MailList } from '../components/MailList';
import { useListState, usePageInRange } from '../../../lib/listState';
import { outboxCodec } from '../lib/outboxCodec';
import { listLoading } from '../../../lib/listLoading';

export default function OutboxPage() {
  const { t } = useTranslation('mail');
  const [page, setPage] = useListState(outboxCodec);
  const outbox = useQuery(listOutboxQuery(page));
  usePageInRange(page, outbox, (pageNum) => setPage((p) => ({ ...p, pageNum })));
  return (
    <Card title={t('outbox')} data-testid="outbox">
      <MailList mails={outbox.data?.list ?? []} loading={listLoading(outbox)} />
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
