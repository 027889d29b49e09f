import { useState } from 'react';
import { Button, Card, Col, Empty, Progress, Row, Space, Statistic, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { caseDetailPath, useDeleteCases, useEmptyRecycleBin } from '../../cases';
import { confirmDanger } from '../../../lib/confirm';
import { storageUsageQuery, type StorageUsage } from '../api/storageUsage';
import { DonutChart } from './DonutChart';
import { sizeText } from '../../../lib/sizes';
import { ScreenLink } from '../../../components/ScreenLink';

const KIND_COLORS: Record<string, string> = {
  model: '#1677ff',
  image: '#52c41a',
  video: '#fa8c16',
  audio: '#722ed1',
  document: '#eb2f96',
};

type LargestCase = StorageUsage['largestCases'][number];
type LargestFile = StorageUsage['largestFiles'][number];

/** Used share of the quota in percent (0–100, one decimal). */
export function usagePercent(used: number, quota: number): number {
  if (!(quota > 0)) return used > 0 ? 100 : 0;
  return Math.min(100, Math.round((used / quota) * 1000) / 10);
}

/** Own space › Storage: usage, usage by kind, largest cases and files, cleanup. */
export default function StoragePanel() {
  const { t } = useTranslation('storage');
  const usage = useQuery(storageUsageQuery());
  const [selected, setSelected] = useState<string[]>([]);

  // The hooks refresh storage, the cases and what shows them.
  const moveToBin = useDeleteCases({
    onSuccess: (_d, codes) => {
      notify.success(t('moved', { count: codes.length }));
      setSelected([]);
    },
  });
  const empty = useEmptyRecycleBin({
    onSuccess: () => {
      notify.success(t('emptied'));
      setSelected([]);
    },
  });

  const u = usage.data;
  if (!u) return <Card loading={usage.isPending} data-testid="storage-usage" />;
  const percent = usagePercent(u.usedBytes, u.quotaBytes);
  const slices = u.byKind.map((k) => ({
    key: k.kind,
    label: `${t(`kind.${k.kind}`)}: ${sizeText(k.bytes)}`,
    value: k.bytes,
    color: KIND_COLORS[k.kind] ?? '#999',
  }));

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('title')} data-testid="storage-usage" data-used={u.usedBytes} data-quota={u.quotaBytes}>
        <Row gutter={[24, 16]} align="middle">
          <Col xs={24} md={14}>
            <Typography.Paragraph data-testid="storage-usage-text">
              {t('usedOf', { used: sizeText(u.usedBytes), quota: sizeText(u.quotaBytes) })}
            </Typography.Paragraph>
            <Progress
              percent={percent}
              status={percent >= 90 ? 'exception' : 'normal'}
              data-testid="storage-usage-bar"
            />
            <Space size={32} style={{ marginTop: 16 }} wrap>
              <Statistic title={t('used')} value={sizeText(u.usedBytes)} />
              <Statistic title={t('free')} value={sizeText(Math.max(0, u.quotaBytes - u.usedBytes))} />
              <Statistic title={t('recycleBin')} value={sizeText(u.recycleBinBytes)} />
            </Space>
            <div style={{ marginTop: 16 }}>
              <Button
                danger
                data-testid="storage-empty-bin"
                disabled={u.recycleBinBytes <= 0}
                loading={empty.isPending}
                onClick={() =>
                  confirmDanger({
                    title: t('emptyConfirm'),
                    content: t('emptyHint', { size: sizeText(u.recycleBinBytes) }),
                    okText: t('emptyBin'),
                    cancelText: t('common:cancel'),
                    okTestId: 'storage-empty-confirm',
                    onOk: () => empty.mutateAsync(),
                  })
                }
              >
                {t('emptyBin')}
              </Button>
            </div>
          </Col>
          <Col xs={24} md={10}>
            <Space align="center" size={24} wrap>
              <DonutChart slices={slices} title={t('byKind')} />
              <div data-testid="storage-legend">
                {u.byKind.length === 0 ? <Typography.Text type="secondary">{t('noFiles')}</Typography.Text> : null}
                {u.byKind.map((k) => (
                  <div key={k.kind} data-kind={k.kind}>
                    <span
                      style={{
                        display: 'inline-block',
                        width: 10,
                        height: 10,
                        borderRadius: 2,
                        background: KIND_COLORS[k.kind] ?? '#999',
                        marginRight: 8,
                      }}
                    />
                    {t(`kind.${k.kind}`)}: {sizeText(k.bytes)} ({t('fileCount', { count: k.count })})
                  </div>
                ))}
              </div>
            </Space>
          </Col>
        </Row>
      </Card>

      <Card
        title={t('largestCases')}
        extra={
          <Button
            danger
            data-testid="storage-move-to-bin"
            disabled={selected.length === 0}
            loading={moveToBin.isPending}
            onClick={() =>
              confirmDanger({
                title: t('moveConfirm', { count: selected.length }),
                okText: t('moveToBin'),
                cancelText: t('common:cancel'),
                okTestId: 'storage-move-confirm',
                onOk: () => moveToBin.mutateAsync(selected),
              })
            }
          >
            {t('moveToBin')}
          </Button>
        }
      >
        <Table<LargestCase>
          rowKey="caseCode"
          size="small"
          pagination={false}
          locale={{ emptyText: <Empty description={t('noFiles')} /> }}
          dataSource={u.largestCases}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
          onRow={(r) => ({ 'data-testid': `storage-case-${r.caseCode}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: t('caseName'),
              dataIndex: 'name',
              render: (v: string, r) => <ScreenLink to={caseDetailPath(r.caseCode)}>{v}</ScreenLink>,
            },
            { title: t('patientName'), dataIndex: 'patientName' },
            { title: t('size'), dataIndex: 'size', render: (v: number) => sizeText(v) },
          ]}
        />
      </Card>

      <Card title={t('largestFiles')}>
        <Table<LargestFile>
          rowKey="fileCode"
          size="small"
          pagination={false}
          dataSource={u.largestFiles}
          onRow={(r) => ({ 'data-testid': `storage-file-${r.fileCode}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: t('fileName'),
              dataIndex: 'name',
              render: (v: string, r) => <ScreenLink to={caseDetailPath(r.caseCode)}>{v}</ScreenLink>,
            },
            { title: t('size'), dataIndex: 'size', render: (v: number) => sizeText(v) },
          ]}
        />
      </Card>
    </Space>
  );
}
