import { Col, Empty, Row, Select, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { TOOTH_STAGES, toothLabel, type ToothNumberingSystem, type ToothStage } from '@portal/contracts';
import type { ToothItem } from '../api/types';
import { useSetToothStage } from '../api/useOrderMutations';
import { sortTeeth } from '../lib/teeth';
import { ToothChart, ToothChartLegend } from './ToothChart';

/** antd's preset colours (they follow the theme), the same hues as the chart's dots. */
const STAGE_TAGS: Record<ToothStage, string> = {
  design: 'purple',
  milling: 'orange',
  finishing: 'cyan',
  done: 'green',
};

const FLAGS = ['implant', 'inlayCore', 'edentulous', 'preOpScan'] as const;

const unitOf = (r: ToothItem) => (r.bridgeGroup !== undefined && r.unit && r.unit !== 'single' ? r.unit : null);

/**
 * An order's prescription: the chart with the chosen teeth and, per tooth, what the laboratory is to make and where
 * its work stands. `stageEditable`: the laboratory, producing the order, marks each tooth's stage here.
 */
export function OrderTeeth({
  teeth,
  system,
  orderCode,
  stageEditable = false,
}: {
  teeth: readonly ToothItem[];
  system: ToothNumberingSystem;
  orderCode: string;
  stageEditable?: boolean;
}) {
  const { t } = useTranslation(['orders', 'numbering']);
  const { t: tt } = useTranslation('teeth');
  const stage = useSetToothStage(orderCode);
  if (teeth.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('teeth.none')} data-testid="order-teeth-empty" />;
  const ordered = sortTeeth(teeth.map((i) => i.number)).map((n) => teeth.find((i) => i.number === n)!);
  const text = (v: string | undefined) => v || '—';
  const columns: ColumnsType<ToothItem> = [
    {
      title: t('numbering:column', { system: t(`numbering:name.${system}`) }),
      key: 'number',
      fixed: 'left',
      render: (_, r) => <strong data-testid={`order-tooth-label-${r.number}`}>{toothLabel(r.number, system)}</strong>,
    },
    {
      title: tt('unit'),
      key: 'unit',
      render: (_, r) => {
        const unit = unitOf(r);
        return unit ? (
          <Tag color={unit === 'abutment' ? 'blue' : undefined} data-testid={`order-tooth-unit-${r.number}`}>
            {tt(`state.${unit}`)}
          </Tag>
        ) : (
          tt('state.single')
        );
      },
    },
    {
      title: tt('stage.title'),
      key: 'stage',
      render: (_, r) => {
        // A bridge is made as one piece: its units move together.
        const numbers =
          unitOf(r) && r.bridgeGroup !== undefined
            ? teeth.filter((i) => i.bridgeGroup === r.bridgeGroup).map((i) => i.number)
            : [r.number];
        return stageEditable ? (
          <Select<ToothStage>
            size="small"
            style={{ minWidth: 130 }}
            aria-label={tt('stage.of', { label: toothLabel(r.number, system) })}
            data-testid={`order-tooth-stage-${r.number}`}
            placeholder={tt('stage.none')}
            value={r.stage}
            disabled={stage.isPending}
            onChange={(to) => stage.mutate({ numbers, to })}
            options={TOOTH_STAGES.map((s) => ({ value: s, label: tt(`stage.${s}`) }))}
          />
        ) : r.stage ? (
          <Tag color={STAGE_TAGS[r.stage]} data-testid={`order-tooth-stage-${r.number}`}>
            {tt(`stage.${r.stage}`)}
          </Tag>
        ) : (
          '—'
        );
      },
    },
    // Orders made before shades came from the guides keep their free text, shown as it was written.
    { title: t('tooth.shade'), key: 'shade', render: (_, r) => text(r.shade) },
    { title: tt('stumpShade'), key: 'stumpShade', render: (_, r) => text(r.stumpShade) },
    { title: t('tooth.crownCategory'), key: 'crownCategory', render: (_, r) => text(r.crownCategory) },
    { title: t('tooth.crownType'), key: 'crownType', render: (_, r) => text(r.crownType) },
    { title: t('tooth.material'), key: 'material', render: (_, r) => text(r.material) },
    { title: t('tooth.method'), key: 'method', render: (_, r) => (r.method ? t(`method.${r.method}`) : '—') },
    {
      title: t('tooth.details'),
      key: 'flags',
      render: (_, r) => (
        <>
          {r.missing ? <Tag>{tt('state.missing')}</Tag> : null}
          {FLAGS.filter((f) => r[f]).map((f) => (
            <Tag key={f}>{t(`tooth.${f}`)}</Tag>
          ))}
        </>
      ),
    },
  ];
  return (
    <Row gutter={[16, 16]} data-testid="order-teeth">
      <Col xs={24} xxl={9}>
        <div style={{ maxWidth: 360, margin: '0 auto' }}>
          <ToothChart items={ordered} system={system} />
          <ToothChartLegend stages={[...new Set(ordered.flatMap((i) => (i.stage ? [i.stage] : [])))]} />
        </div>
      </Col>
      <Col xs={24} xxl={15}>
        <Table<ToothItem>
          rowKey="number"
          size="small"
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={columns}
          dataSource={ordered}
          onRow={(r) => ({ 'data-testid': `order-tooth-${r.number}` }) as React.HTMLAttributes<HTMLElement>}
        />
      </Col>
    </Row>
  );
}
