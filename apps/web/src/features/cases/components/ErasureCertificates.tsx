import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Table } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { formatDateTime } from '../../../lib/dates';
import { saveBlob } from '../../../lib/download';
import { listLoading } from '../../../lib/listLoading';
import { usePageInRange } from '../../../lib/listState';
import { ERASURES_PAGE_SIZE, erasuresQuery, type Certificate } from '../api/erasure';

/** Saves a certificate as the JSON the erasure answered. */
export function saveCertificate(certificate: Certificate) {
  saveBlob(
    new Blob([JSON.stringify(certificate, null, 2)], { type: 'application/json' }),
    `erasure-${certificate.erasureCode}.json`,
  );
}

/** The clinic administrator's erasure certificates (newest first), each downloadable again. */
export function ErasureCertificates() {
  const { t } = useTranslation('cases');
  const [open, setOpen] = useState(false);
  const [pageNum, setPageNum] = useState(1);
  const list = useQuery({ ...erasuresQuery(pageNum), enabled: open });
  usePageInRange({ pageNum, pageSize: ERASURES_PAGE_SIZE }, list, setPageNum);
  return (
    <>
      <Button
        icon={<SafetyCertificateOutlined aria-hidden />}
        data-testid="erasures-open"
        onClick={() => setOpen(true)}
      >
        {t('erasure.certificates')}
      </Button>
      <Drawer open={open} onClose={() => setOpen(false)} title={t('erasure.certificates')} size="large">
        <Table<Certificate>
          data-testid="erasures"
          rowKey="erasureCode"
          size="small"
          loading={listLoading(list)}
          dataSource={list.data?.list ?? []}
          pagination={{
            current: pageNum,
            pageSize: ERASURES_PAGE_SIZE,
            total: list.data?.total ?? 0,
            onChange: setPageNum,
          }}
          onRow={(c) => ({ 'data-testid': `erasure-${c.erasureCode}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('erasure.erasedAt'), dataIndex: 'erasedAt', render: (v: string) => formatDateTime(v) },
            { title: t('erasure.casesErased'), key: 'cases', render: (_, c) => c.cases.length },
            { title: t('erasure.by'), dataIndex: 'userName', render: (v: string | null) => v ?? '—' },
            { title: t('erasure.reasonColumn'), dataIndex: 'reason' },
            {
              title: t('erasure.code'),
              key: 'download',
              render: (_, c) => (
                <Button size="small" onClick={() => saveCertificate(c)} aria-label={t('erasure.download')}>
                  {c.erasureCode}
                </Button>
              ),
            },
          ]}
        />
      </Drawer>
    </>
  );
}
