import { memo, useCallback, useMemo, useState } from 'react';
import { Button, Card, Checkbox, DatePicker, Empty, Result, Select, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType, TableRowSelection } from 'antd/es/table/interface';
import ExportOutlined from '@ant-design/icons/ExportOutlined';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { ORDER_ACTION_PERMISSION, ORDER_STATUSES, OrderPermission, type OrderParty } from '@portal/contracts';
import { Access, useAccess } from '../../../components/Access';
import { getPrefs } from '../../../lib/prefs';
import { useListState, usePageInRange } from '../../../lib/listState';
import { pagedTable } from '../../../lib/pagedTable';
import { useSession } from '../../../lib/session';
import { TreatmentTags } from '../../cases';
import { LateTag } from '../../catalogue';
import { listOrdersQuery, orderPartiesQuery } from '../api/listOrders';
import type { OrderStatus, OrderSummary } from '../api/types';
import { OrderExportDialog } from '../components/OrderExportDialog';
import { OrderStatusTag } from '../components/OrderStatusTag';
import { PatientName } from '../components/PatientName';
import { useOrderActions } from '../components/useOrderActions';
import {
  orderListCodec,
  sortOrderOf,
  toOrderExportBody,
  toOrderListQuery,
  type OrderFilters,
  type OrderListState,
} from '../lib/orderQuery';
import { commonActions, currentSelection, ORDER_TYPES, sideActions, sideOf, type Side } from '../lib/orderRules';
import { orderDetailPath } from '../lib/paths';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { ScreenLink } from '../../../components/ScreenLink';
import { searchable } from '../../../lib/selectSearch';
import { listLoading } from '../../../lib/listLoading';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['orders'];

/** Orders (§2), for both sides: a clinic follows what it sent, a laboratory works through what it received. */
export default function OrderListPage() {
  const { user } = useSession();
  const { t } = useTranslation('orders');
  const side = sideOf(user?.organization.type);
  if (!side) return <Result status="403" title={t('noAccess')} data-testid="orders-no-access" />;
  return <OrderList side={side} />;
}

function OrderList({ side }: { side: Side }) {
  const { t } = useTranslation('orders');
  const navigate = useNavigate();
  const can = useAccess();
  const codec = useMemo(() => orderListCodec(getPrefs().orderDateRangeDays), []);
  const [state, setState] = useListState(codec);
  const [selected, setSelected] = useState<OrderSummary[]>([]);
  const [exportOpen, setExportOpen] = useState(false);
  const query = useMemo(() => toOrderListQuery(state), [state]);
  const list = useQuery(listOrdersQuery(query));
  usePageInRange(state, list, (pageNum) => setState((s) => ({ ...s, pageNum })));
  // The other side of this organization's orders: the filter needs no partner screen (a role may only read orders).
  const partners = useQuery(orderPartiesQuery());
  const rows = useMemo(() => list.data?.list ?? [], [list.data]);
  // The list is fetched again on focus, on notifications and after actions: the buttons follow what it shows now.
  const chosen = useMemo(() => currentSelection(selected, rows), [selected, rows]);

  const actions = useOrderActions({
    nameOf: (code) => chosen.find((o) => o.orderCode === code)?.caseName,
    onDone: () => setSelected([]),
  });
  const allowed = commonActions(chosen, side);
  const setFilters = useCallback(
    (patch: Partial<OrderFilters>) => setState((s) => ({ ...s, pageNum: 1, filters: { ...s.filters, ...patch } })),
    [setState],
  );

  // Kept between renders: a cell whose row did not change is not drawn again (a live status change repaints its row,
  // not the table, in every open tab).
  const sortOrder = state.sortOrder;
  const columns = useMemo<ColumnsType<OrderSummary>>(
    () => [
      {
        title: t('field.case'),
        key: 'case',
        render: (_, r) => (
          <Space orientation="vertical" size={0}>
            <ScreenLink to={orderDetailPath(r.orderCode)} testId={`order-link-${r.orderCode}`}>
              {r.caseName}
            </ScreenLink>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.orderCode}
            </Typography.Text>
          </Space>
        ),
      },
      { title: t('field.patientName'), key: 'patientName', render: (_, r) => <PatientName name={r.patientName} /> },
      {
        title: side === 'clinic' ? t('field.lab') : t('field.clinic'),
        key: 'partner',
        render: (_, r) => (side === 'clinic' ? r.lab.name : r.clinic.name),
      },
      {
        title: t('field.orderType'),
        key: 'orderType',
        render: (_, r) => t(`orderType.${r.orderType}`, { defaultValue: r.orderType }),
      },
      { title: t('field.workTypes'), key: 'workTypes', render: (_, r) => <TreatmentTags treatments={r.workTypes} /> },
      {
        title: t('field.status'),
        key: 'status',
        render: (_, r) => (
          <Space size={4} wrap>
            <OrderStatusTag status={r.status} processing={r.processing} />
            <LateTag order={r} />
          </Space>
        ),
      },
      {
        title: t('field.requestedDeliveryDate'),
        key: 'requestedDeliveryDate',
        render: (_, r) => (r.requestedDeliveryDate ? formatDate(r.requestedDeliveryDate) : '—'),
      },
      {
        title: t('field.estimatedDeliveryDate'),
        key: 'estimatedDeliveryDate',
        render: (_, r) => (r.estimatedDeliveryDate ? formatDate(r.estimatedDeliveryDate) : '—'),
      },
      { title: t('field.trackingNumber'), key: 'trackingNumber', render: (_, r) => r.trackingNumber ?? '—' },
      {
        title: t('field.createdAt'),
        key: 'createdAt',
        sorter: true,
        sortDirections: ['descend', 'ascend'],
        sortOrder: sortOrder === 'asc' ? 'ascend' : 'descend',
        render: (_, r) => formatDateTime(r.createdAt),
      },
    ],
    [t, side, sortOrder],
  );

  // Each action is a button of the role's menu: only those the user's role holds are offered.
  const permitted = sideActions(side).filter((a) => can(ORDER_ACTION_PERMISSION[a]));
  const selectable = permitted.length > 0;
  const rowSelection = useMemo<TableRowSelection<OrderSummary> | undefined>(
    () =>
      selectable
        ? {
            selectedRowKeys: selected.map((o) => o.orderCode),
            preserveSelectedRowKeys: true,
            onChange: (_keys, picked) => setSelected(picked.filter((o): o is OrderSummary => Boolean(o))),
            getCheckboxProps: (r) =>
              ({
                'data-testid': `order-select-${r.orderCode}`,
                'aria-label': t('selectOrder', { name: r.caseName }),
              }) as Record<string, string>,
          }
        : undefined,
    [selectable, selected, t],
  );
  const rowProps = useCallback(
    (r: OrderSummary) =>
      ({
        'data-testid': `order-row-${r.orderCode}`,
        'data-status': r.status,
        style: { cursor: 'pointer' },
        onClick: (e: React.MouseEvent<HTMLElement>) => {
          // The checkbox cell and the link handle their own clicks.
          if ((e.target as HTMLElement).closest('.ant-table-selection-column, a')) return;
          void navigate(orderDetailPath(r.orderCode));
        },
      }) as React.HTMLAttributes<HTMLElement>,
    [navigate],
  );
  const batchButton = (a: ReturnType<typeof sideActions>[number]) => {
    const ok = allowed.includes(a);
    const button = (
      <Button
        key={a}
        data-testid={`orders-batch-${a}`}
        data-permission={ORDER_ACTION_PERMISSION[a]}
        danger={a === 'reject' || a === 'cancel'}
        type={a === 'accept' || a === 'complete' ? 'primary' : 'default'}
        disabled={!ok || actions.busyAction !== null}
        loading={actions.busyAction === a}
        onClick={() =>
          actions.start(
            a,
            selected.map((o) => o.orderCode),
          )
        }
      >
        {t(`action.${a}`)}
      </Button>
    );
    // Say why a button is off once something is selected: a disabled button alone does not tell.
    return selected.length > 0 && !ok ? (
      <Tooltip key={a} title={t('batch.notForAll')}>
        <span>{button}</span>
      </Tooltip>
    ) : (
      button
    );
  };

  return (
    <Card
      title={t('title')}
      data-testid="orders-page"
      data-side={side}
      extra={
        <Access permission={OrderPermission.Export}>
          <Button icon={<ExportOutlined aria-hidden />} data-testid="order-export" onClick={() => setExportOpen(true)}>
            {t('export.button')}
          </Button>
        </Access>
      }
    >
      <OrderFilterBar
        side={side}
        filters={state.filters}
        onChange={setFilters}
        partners={partners.data}
        partnersPending={partners.isPending}
      />
      {permitted.length ? (
        <Space wrap style={{ marginBottom: 16 }} data-testid="orders-batch">
          {permitted.map(batchButton)}
          {selected.length ? (
            <Typography.Text type="secondary">{t('selected', { count: selected.length })}</Typography.Text>
          ) : null}
        </Space>
      ) : null}
      <Table<OrderSummary>
        data-testid="orders-table"
        rowKey="orderCode"
        size="middle"
        scroll={{ x: 'max-content' }}
        loading={listLoading(list)}
        columns={columns}
        dataSource={rows}
        locale={{ emptyText: <Empty description={list.isPending ? t('loading') : t('empty')} /> }}
        rowSelection={rowSelection}
        onRow={rowProps}
        {...pagedTable<OrderSummary, OrderListState>({
          state,
          setState,
          total: list.data?.total ?? 0,
          showTotal: (total) => t('total', { count: total }),
          sortOf: (s) => ({ sortOrder: sortOrderOf(s?.order) }),
        })}
      />
      {actions.element}
      <OrderExportDialog
        open={exportOpen}
        body={(format) => toOrderExportBody(state, format)}
        onClose={() => setExportOpen(false)}
      />
    </Card>
  );
}

/**
 * The list's filters, drawn again only when they change: a live status change or a refetch repaints the rows, not
 * the pickers.
 */
const OrderFilterBar = memo(function OrderFilterBar({
  side,
  filters,
  onChange,
  partners,
  partnersPending,
}: {
  side: Side;
  filters: OrderFilters;
  onChange: (patch: Partial<OrderFilters>) => void;
  partners: OrderParty[] | undefined;
  partnersPending: boolean;
}) {
  const { t } = useTranslation('orders');
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <DatePicker.RangePicker
        data-testid="orders-filter-range"
        aria-label={t('filter.range')}
        value={filters.range}
        onChange={(v) => onChange({ range: v && v[0] && v[1] ? ([v[0], v[1]] as [Dayjs, Dayjs]) : null })}
        allowClear
      />
      <Select
        data-testid="orders-filter-status"
        aria-label={t('filter.status')}
        allowClear
        placeholder={t('filter.status')}
        style={{ minWidth: 160 }}
        value={filters.status}
        onChange={(v?: OrderStatus) => onChange({ status: v })}
        options={ORDER_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
      />
      <Select
        data-testid="orders-filter-type"
        aria-label={t('filter.orderType')}
        allowClear
        placeholder={t('filter.orderType')}
        style={{ minWidth: 160 }}
        value={filters.orderType}
        onChange={(v?: string) => onChange({ orderType: v })}
        options={ORDER_TYPES.map((s) => ({ value: s, label: t(`orderType.${s}`) }))}
      />
      <Select
        {...searchable}
        data-testid="orders-filter-partner"
        aria-label={side === 'clinic' ? t('filter.lab') : t('filter.clinic')}
        allowClear
        placeholder={side === 'clinic' ? t('filter.lab') : t('filter.clinic')}
        style={{ minWidth: 200 }}
        loading={partnersPending}
        value={filters.partnerCode}
        onChange={(v?: string) => onChange({ partnerCode: v })}
        options={(partners ?? []).map((p) => ({ value: p.partnerCode, label: p.name }))}
      />
      <Checkbox
        data-testid="orders-filter-late"
        checked={Boolean(filters.lateOnly)}
        onChange={(e) => onChange({ lateOnly: e.target.checked })}
      >
        {t('filter.lateOnly')}
      </Checkbox>
    </Space>
  );
});
