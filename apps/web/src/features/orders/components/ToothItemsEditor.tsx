import { Button, Checkbox, Input, Select, Space, Table, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import CopyOutlined from '@ant-design/icons/CopyOutlined';
import { useTranslation } from 'react-i18next';
import { CROWN_METHODS, toothLabel, type ToothNumberingSystem } from '@portal/contracts';
import type { PrescriptionField, ToothItem } from '../api/types';
import { copyToAll, setToothValue } from '../lib/teeth';

type TextField = 'shade' | 'crownCategory' | 'crownType' | 'material';
/** Limits of the contract's tooth item. */
const TEXT_FIELDS: { key: TextField; max: number }[] = [
  { key: 'shade', max: 20 },
  { key: 'crownCategory', max: 40 },
  { key: 'crownType', max: 40 },
  { key: 'material', max: 60 },
];
const FLAGS = ['implant', 'inlayCore', 'edentulous', 'preOpScan'] as const;
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
}: {
  items: ToothItem[];
  system: ToothNumberingSystem;
  required: ReadonlySet<PrescriptionField>;
  showErrors: boolean;
  onChange: (items: ToothItem[]) => void;
}) {
  const { t } = useTranslation('orders');
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
      title: t('tooth.number'),
      key: 'number',
      fixed: 'left',
      width: 64,
      render: (_, r) => <strong>{toothLabel(r.number, system)}</strong>,
    },
    ...TEXT_FIELDS.map(({ key, max }) => ({
      title: title(key),
      key,
      render: (_: unknown, r: ToothItem) => (
        <Input
          size="small"
          style={{ minWidth: key === 'shade' ? 80 : 120 }}
          maxLength={max}
          value={r[key] ?? ''}
          status={invalid(key, r[key]) ? 'error' : undefined}
          placeholder={key === 'shade' ? 'A2' : undefined}
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
              {t(`tooth.${f}`)}
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
              icon={<CopyOutlined />}
              aria-label={`${t('tooth.copyToAll')} (${toothLabel(r.number, system)})`}
              data-testid={`tooth-${r.number}-copy`}
              onClick={() => onChange(copyToAll(items, r.number))}
            />
          </Tooltip>
        ) : null,
    },
  ];

  return (
    <Table<ToothItem>
      data-testid="tooth-items"
      rowKey="number"
      size="small"
      pagination={false}
      scroll={{ x: 'max-content' }}
      columns={columns}
      dataSource={items}
    />
  );
}
