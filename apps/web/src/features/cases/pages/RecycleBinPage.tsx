import { useState } from 'react';
import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useListState, usePageInRange } from '../../../lib/listState';
import { notify } from '../../../lib/notify';
import { listRecycleBinQuery } from '../api/listRecycleBin';
import type { CaseSummary } from '../api/types';
import { useEmptyRecycleBin, usePurgeCases, useRestoreCases } from '../api/useCaseMutations';
import { recycleBinCodec } from '../lib/recycleBinCodec';
import { confirmDanger } from '../../../lib/confirm';
import { formatDateTime } from '../../../lib/dates';
import { sizeText } from '../../../lib/sizes';
import { listLoading } from '../../../lib/listLoading';
import { Access } from '../../../components/Access';
import { CertificateDialog, ErasePatientButton } from '../components/PatientDataActions';
import type { Certificate } from '../api/erasure';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['cases'];

export default function RecycleBinPage() {
  const { t } = useTranslation('cases');
  const [query, setQuery] = useListState(recycleBinCodec);
  const [selected, setSelected] = useState<string[]>([]);
  const [certificate, setCertificate] = useState<Certificate | null>(null);
  const list = useQuery(listRecycleBinQuery(query));
  usePageInRange(query, list, (pageNum) => setQuery((s) => ({ ...s, pageNum })));

  // The hooks refresh the recycle bin as well as the lists, pages, dashboard counts and storage used.
  const done = (text: string) => {
    notify.success(text);
    setSelected([]);
  };
  const restore = useRestoreCases({ onSuccess: (_d, codes) => done(t('recycle.restored', { count: codes.length })) });
  const purge = usePurgeCases({ onSuccess: (_d, codes) => done(t('recycle.purged', { count: codes.length })) });
  const empty = useEmptyRecycleBin({ onSuccess: () => done(t('recycle.emptied')) });

  const confirmPurge = (codes: string[]) =>
    confirmDanger({
      title: t('recycle.purgeConfirm', { count: codes.length }),
      content: t('recycle.purgeHint'),
      okText: t('recycle.purge'),
      cancelText: t('common:cancel'),
      okTestId: 'recycle-purge-confirm',
      onOk: () => purge.mutateAsync(codes),
    });

  const columns: ColumnsType<CaseSummary> = [
    { title: t('field.name'), dataIndex: 'name' },
    { title: t('field.patientName'), dataIndex: 'patientName' },
    { title: t('field.files'), key: 'files', render: (_, r) => r.fileCount },
    { title: t('field.size'), key: 'size', render: (_, r) => sizeText(r.size) },
    { title: t('recycle.deletedAt'), dataIndex: 'deletedAt', render: (v: string | null) => formatDateTime(v) },
    {
      title: t('actions'),
      key: 'actions',
      render: (_, r) => (
        <Space>
          <Button
            size="small"
            data-testid="recycle-restore"
            loading={restore.isPending && restore.variables.includes(r.caseCode)}
            onClick={() => restore.mutate([r.caseCode])}
          >
            {t('recycle.restore')}
          </Button>
          {r.held ? (
            // Neither deleted for good nor erased while held: the hold is released on the case's page.
            <Tag color="gold" data-testid="recycle-held">
              {t('erasure.held')}
            </Tag>
          ) : (
            <Button size="small" danger data-testid="recycle-purge" onClick={() => confirmPurge([r.caseCode])}>
              {t('recycle.purge')}
            </Button>
          )}
          <Access permission="patient:erase">
            <ErasePatientButton c={r} onErased={setCertificate} />
          </Access>
        </Space>
      ),
    },
  ];

  const total = list.data?.total ?? 0;
  const heldChosen = (list.data?.list ?? []).some((r) => r.held && selected.includes(r.caseCode));
  return (
    <Card
      title={t('recycle.title')}
      data-testid="recycle-bin"
      extra={
        <Button
          danger
          data-testid="recycle-empty"
          disabled={total === 0}
          loading={empty.isPending}
          onClick={() =>
            confirmDanger({
              title: t('recycle.emptyConfirm'),
              content: t('recycle.purgeHint'),
              okText: t('recycle.empty'),
              cancelText: t('common:cancel'),
              okTestId: 'recycle-empty-confirm',
              onOk: () => empty.mutateAsync(),
            })
          }
        >
          {t('recycle.empty')}
        </Button>
      }
    >
      <Space style={{ marginBottom: 16 }}>
        <Button
          data-testid="recycle-batch-restore"
          disabled={selected.length === 0}
          loading={restore.isPending}
          onClick={() => restore.mutate(selected)}
        >
          {t('recycle.restore')}
        </Button>
        <Button
          danger
          data-testid="recycle-batch-purge"
          // A held case is not deleted for good: not offered while one is chosen.
          disabled={selected.length === 0 || heldChosen}
          onClick={() => confirmPurge(selected)}
        >
          {t('recycle.purge')}
        </Button>
        {selected.length ? (
          <Typography.Text type="secondary">{t('selected', { count: selected.length })}</Typography.Text>
        ) : null}
      </Space>
      <Table<CaseSummary>
        rowKey="caseCode"
        size="middle"
        scroll={{ x: 'max-content' }}
        loading={listLoading(list)}
        columns={columns}
        dataSource={list.data?.list ?? []}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
        onRow={(r) =>
          ({ 'data-testid': `recycle-row-${r.caseCode}`, 'data-name': r.name }) as React.HTMLAttributes<HTMLElement>
        }
        pagination={{
          current: query.pageNum,
          pageSize: query.pageSize,
          total,
          showTotal: (n) => t('total', { count: n }),
          onChange: (pageNum, pageSize) => setQuery({ pageNum, pageSize }),
        }}
      />
      {certificate && <CertificateDialog certificate={certificate} />}
    </Card>
  );
}
