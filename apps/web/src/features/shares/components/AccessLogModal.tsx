import { useState } from 'react';
import { Modal, Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { shareAccessLog, type ShareAccessEntry } from '../api/shares';
import { shareKeys } from '../api/keys';
import { formatDateTime } from '../../../lib/dates';
import { usePageInRange } from '../../../lib/listState';

const PAGE_SIZE = 10;

/** Every opening of one share: when, how, the browser and system families, and the hashed address. */
export function AccessLogModal({ shareCode, onClose }: { shareCode: string | null; onClose: () => void }) {
  const { t } = useTranslation('shares');
  const [page, setPage] = useState(1);
  const log = useQuery({
    queryKey: shareKeys.log(shareCode ?? '', page),
    queryFn: () => shareAccessLog(shareCode!, page, PAGE_SIZE),
    enabled: shareCode !== null,
  });
  // The log goes with its share (deleted elsewhere meanwhile): a page past the end moves to the last one.
  usePageInRange({ pageNum: page, pageSize: PAGE_SIZE }, log, setPage);
  return (
    <Modal
      open={shareCode !== null}
      title={t('log.title')}
      footer={null}
      onCancel={() => {
        setPage(1);
        onClose();
      }}
      width="min(720px, 95vw)"
      destroyOnHidden
    >
      <Table<ShareAccessEntry>
        size="small"
        rowKey={(r) => `${r.at}-${r.kind}-${r.addressHash}`}
        loading={log.isPending}
        dataSource={log.data?.list ?? []}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('log.empty') }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: log.data?.total ?? 0,
          onChange: setPage,
          hideOnSinglePage: true,
        }}
        columns={[
          { title: t('log.at'), dataIndex: 'at', render: (v: string) => formatDateTime(v) },
          { title: t('log.kind'), dataIndex: 'kind', render: (v: string) => t(`kind.${v}`) },
          { title: t('log.userAgent'), dataIndex: 'userAgent' },
          { title: t('log.address'), dataIndex: 'addressHash', render: (v: string) => <code>{v}</code> },
        ]}
        data-testid="share-access-log"
      />
    </Modal>
  );
}
