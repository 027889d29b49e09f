import { Button, Checkbox, Flex, Input, Select, Space, Table, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import CopyOutlined from '@ant-design/icons/CopyOutlined';
import { useTranslation } from 'react-i18next';
import {
  CROWN_METHODS,
  STUMP_SHADES,
  toothLabel,
  VITA_3D_MASTER_SHADES,
  VITA_CLASSICAL_SHADES,
  type ToothNumberingSystem,
} from '@portal/contracts';
import type { PrescriptionField, ToothItem } from '../api/types';
import { copyToAll, setAllValue, setToothValue } from '../lib/teeth';
import { searchable } from '../../../lib/selectSearch';

type TextField = 'crownCategory' | 'crownType' | 'material';
/** Limits of the contract's tooth item. */
const TEXT_FIELDS: { key: TextField; max: number }[] = [
  { key: 'crownCategory', max: 40 },
  { key: 'crownType', max: 40 },
  { key: 'material', max: 60 },
];
const FLAGS = ['missing', 'implant', 'inlayCore', 'edentulous', 'preOpScan'] as const;
const STUMP_OPTIONS = STUMP_SHADES.map((s) => ({ value: s, label: s }));
/** Read by screen readers, not shown. */
const SR_ONLY: React.CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

/**
 * The prescription per chosen tooth. Fields the laboratory requires for the chosen work types are marked;
 * after a refused send, the empty ones are shown in error.
 */
export function ToothItemsEditor({
  items,
  system,
  required,
  showErrors,
  onChange,
  materialOptions,
}: {
  items: ToothItem[];
  system: ToothNumberingSystem;
  required: ReadonlySet<PrescriptionField>;
  showErrors: boolean;
  onChange: (items: ToothItem[]) => void;
  /** The materials of the chosen catalogue product: the material is picked among them instead of typed. */
  materialOptions?: readonly string[];
}) {
  const { t } = useTranslation(['orders', 'numbering']);
  const { t: tt } = useTranslation('teeth');
  const shadeOptions = [
    { label: tt('guide.vitaClassical'), options: VITA_CLASSICAL_SHADES.map((s) => ({ value: s, label: s })) },
    { label: tt('guide.vita3dMaster'), options: VITA_3D_MASTER_SHADES.map((s) => ({ value: s, label: s })) },
  ];
  const title = (f: PrescriptionField) => (
    <span data-required={required.has(f) ? 'true' : 'false'}>
      {required.has(f) ? (
        <span style={{ color: 'var(--ant-color-error, #ff4d4f)' }} aria-hidden>
          *{' '}
        </span>
      ) : null}
      {t(`tooth.${f}`)}
      {required.has(f) ? <span style={SR_ONLY}> ({t('required')})</span> : null}
    </span>
  );
  const invalid = (f: PrescriptionField, v: unknown) =>
    showErrors && required.has(f) && (v === undefined || (typeof v === 'string' && v.trim() === ''));

  const columns: ColumnsType<ToothItem> = [
    {
      title: t('numbering:column', { system: t(`numbering:name.${system}`) }),
      key: 'number',
      fixed: 'left',
      width: 64,
      render: (_, r) => <strong>{toothLabel(r.number, system)}</strong>,
    },
    {
      title: tt('unit'),
      key: 'unit',
      render: (_, r) =>
        r.bridgeGroup !== undefined ? (
          <Select
            size="small"
            style={{ minWidth: 110 }}
            value={r.unit === 'pontic' ? 'pontic' : 'abutment'}
            aria-label={`${tt('unit')} ${toothLabel(r.number, system)}`}
            data-testid={`tooth-${r.number}-unit`}
            onChange={(v: 'abutment' | 'pontic') => onChange(setToothValue(items, r.number, 'unit', v))}
            options={(['abutment', 'pontic'] as const).map((u) => ({ value: u, label: tt(`state.${u}`) }))}
          />
        ) : (
          <span data-testid={`tooth-${r.number}-unit`}>{tt('state.single')}</span>
        ),
    },
    {
      title: title('shade'),
      key: 'shade',
      render: (_, r) => (
        <Select
          {...searchable}
          size="small"
          allowClear
          style={{ minWidth: 96 }}
          value={r.shade}
          status={invalid('shade', r.shade) ? 'error' : undefined}
          placeholder="A2"
          aria-label={`${t('tooth.shade')} ${toothLabel(r.number, system)}`}
          aria-required={required.has('shade')}
          data-testid={`tooth-${r.number}-shade`}
          onChange={(v?: string) => onChange(setToothValue(items, r.number, 'shade', v))}
          options={shadeOptions}
        />
      ),
    },
    {
      title: tt('stumpShade'),
      key: 'stumpShade',
      render: (_, r) => (
        <Select
          {...searchable}
          size="small"
          allowClear
          style={{ minWidth: 84 }}
          value={r.stumpShade}
          aria-label={`${tt('stumpShade')} ${toothLabel(r.number, system)}`}
          data-testid={`tooth-${r.number}-stumpShade`}
          onChange={(v?: string) => onChange(setToothValue(items, r.number, 'stumpShade', v))}
          options={STUMP_OPTIONS}
        />
      ),
    },
    ...TEXT_FIELDS.map(({ key, max }) => ({
      title: title(key),
      key,
      render: (_: unknown, r: ToothItem) =>
        key === 'material' && materialOptions?.length ? (
          <Select
            {...searchable}
            size="small"
            allowClear
            style={{ minWidth: 140 }}
            value={r.material || undefined}
            status={invalid(key, r[key]) ? 'error' : undefined}
            aria-label={`${t(`tooth.${key}`)} ${toothLabel(r.number, system)}`}
            aria-required={required.has(key)}
            data-testid={`tooth-${r.number}-${key}`}
            onChange={(v?: string) => onChange(setToothValue(items, r.number, key, v ?? ''))}
            options={materialOptions.map((m) => ({ value: m, label: m }))}
          />
        ) : (
          <Input
            size="small"
            style={{ minWidth: 120 }}
            maxLength={max}
            value={r[key] ?? ''}
            status={invalid(key, r[key]) ? 'error' : undefined}
            aria-label={`${t(`tooth.${key}`)} ${toothLabel(r.number, system)}`}
            aria-required={required.has(key)}
            data-testid={`tooth-${r.number}-${key}`}
            onChange={(e) => onChange(setToothValue(items, r.number, key, e.target.value))}
          />
        ),
    })),
    {
      title: title('method'),
      key: 'method',
      render: (_, r) => (
        <Select
          size="small"
          allowClear
          style={{ minWidth: 150 }}
          value={r.method}
          status={invalid('method', r.method) ? 'error' : undefined}
          aria-label={`${t('tooth.method')} ${toothLabel(r.number, system)}`}
          data-testid={`tooth-${r.number}-method`}
          onChange={(v?: ToothItem['method']) => onChange(setToothValue(items, r.number, 'method', v))}
          options={CROWN_METHODS.map((m) => ({ value: m, label: t(`method.${m}`) }))}
        />
      ),
    },
    {
      title: t('tooth.details'),
      key: 'flags',
      render: (_, r) => (
        <Space wrap size={[8, 0]}>
          {FLAGS.map((f) => (
            <Checkbox
              key={f}
              checked={Boolean(r[f])}
              data-testid={`tooth-${r.number}-${f}`}
              onChange={(e) => onChange(setToothValue(items, r.number, f, e.target.checked))}
            >
              {f === 'missing' ? tt('state.missing') : t(`tooth.${f}`)}
            </Checkbox>
          ))}
        </Space>
      ),
    },
    {
      title: <span style={SR_ONLY}>{t('tooth.copyToAll')}</span>,
      key: 'copy',
      width: 48,
      render: (_, r) =>
        items.length > 1 ? (
          <Tooltip title={t('tooth.copyToAll')}>
            <Button
              size="small"
              type="text"
              icon={<CopyOutlined aria-hidden />}
              aria-label={`${t('tooth.copyToAll')} (${toothLabel(r.number, system)})`}
              data-testid={`tooth-${r.number}-copy`}
              onClick={() => onChange(copyToAll(items, r.number))}
            />
          </Tooltip>
        ) : null,
    },
  ];

  return (
    <>
      {items.length > 1 ? (
        <Flex gap={8} align="center" wrap style={{ marginBottom: 8 }}>
          <label htmlFor="tooth-shade-all">{tt('shadeForAll')}</label>
          <Select
            {...searchable}
            id="tooth-shade-all"
            size="small"
            style={{ width: 120 }}
            placeholder="A2"
            value={items.every((i) => i.shade && i.shade === items[0]!.shade) ? items[0]!.shade : undefined}
            data-testid="tooth-shade-all"
            onChange={(v: string) => onChange(setAllValue(items, 'shade', v))}
            options={shadeOptions}
          />
        </Flex>
      ) : null}
      <Table<ToothItem>
        data-testid="tooth-items"
        rowKey="number"
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={columns}
        dataSource={items}
      />
    </>
  );
}
