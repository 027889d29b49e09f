import { Suspense, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Row,
  Segmented,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { OrgType, type UserInfo } from '@portal/contracts';
import { useSession } from '../../../lib/session';
import { CASE_STATUS_COLORS, caseDetailPath } from '../../cases';
import { ORDER_STATUS_COLORS, orderDetailPath } from '../../orders';
import { OwnScorecard } from '../../scorecards';
import { Access } from '../../../components/Access';
import { indexDashboardQuery, type IndexDashboard } from '../api/indexDashboard';
import { acceptOrderLineChartQuery, lineChartQuery, type DashboardPeriod, type LineChart } from '../api/lineCharts';
import { deviceDashboardQuery, type DeviceDashboard } from '../api/deviceDashboard';
import { roleLabel } from '../../../lib/roles';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { ScreenLink } from '../../../components/ScreenLink';
import { lazyChunk } from '../../../lib/lazyChunk';
import { listLoading } from '../../../lib/listLoading';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['dashboard', 'devices'];

// The chart is its own chunk, fetched only by the dashboard.
const TrendChart = lazyChunk(() => import('../components/TrendChart'));

/** The periods of user/lineChart (contracts' DASHBOARD_PERIODS; repeated so no schema module is bundled). */
export const PERIODS: readonly DashboardPeriod[] = ['7d', '30d', '90d', '365d'];
const DEFAULT_PERIOD: DashboardPeriod = '30d';

type Side = 'clinic' | 'lab';
type RecentCase = IndexDashboard['recentCases'][number];
type RecentOrder = IndexDashboard['recentOrders'][number];

interface Stat {
  key: string;
  value: number;
}

/** The statistic cards of a side, in order: the clinic follows its cases and sent orders, the laboratory its production. */
export function statsFor(side: Side, d: IndexDashboard): Stat[] {
  const orders = (status: string) => d.orders.byStatus.find((s) => s.status === status)?.count ?? 0;
  const common = [
    { key: 'partners', value: d.partners },
    { key: 'unread', value: d.unreadMessages },
  ];
  if (side === 'clinic') {
    return [
      { key: 'cases', value: d.cases.total },
      { key: 'orders', value: d.orders.total },
      { key: 'pending', value: orders('pending') },
      { key: 'accepted', value: orders('accepted') },
      { key: 'shipped', value: orders('shipped') },
      { key: 'completed', value: orders('completed') },
      ...common,
    ];
  }
  return [
    { key: 'orders', value: d.orders.total },
    { key: 'pending', value: orders('pending') },
    { key: 'accepted', value: orders('accepted') },
    { key: 'ready', value: orders('ready') },
    { key: 'shipped', value: orders('shipped') },
    { key: 'completed', value: orders('completed') },
    ...common,
  ];
}

function StatCard({ side, stat, loading }: { side: Side; stat: Stat; loading: boolean }) {
  const { t } = useTranslation('dashboard');
  return (
    <Card size="small" style={{ height: '100%' }}>
      <Statistic
        title={t(`stat.${side}.${stat.key}`)}
        loading={loading}
        value={stat.value}
        formatter={(v) => <span data-testid={`dashboard-stat-${stat.key}`}>{Number(v)}</span>}
      />
    </Card>
  );
}

function OrderStatusTag({ order, t }: { order: RecentOrder; t: TFunction }) {
  return (
    <Space size={4} wrap>
      <Tag
        color={ORDER_STATUS_COLORS[order.status] ?? 'default'}
        data-status={order.status}
        style={{ marginInlineEnd: 0 }}
      >
        {t(`orderStatus.${order.status}`, { defaultValue: order.status })}
      </Tag>
      {order.status === 'accepted' && order.processing ? (
        <Tag color="processing" style={{ marginInlineEnd: 0 }}>
          {t('processing')}
        </Tag>
      ) : null}
    </Space>
  );
}

function RecentCases({ rows, loading }: { rows: RecentCase[]; loading: boolean }) {
  const { t } = useTranslation('dashboard');
  const columns: ColumnsType<RecentCase> = [
    {
      title: t('recent.caseName'),
      dataIndex: 'name',
      render: (v: string, c) => <ScreenLink to={caseDetailPath(c.caseCode)}>{v || c.caseCode}</ScreenLink>,
    },
    { title: t('recent.patient'), dataIndex: 'patientName' },
    {
      title: t('recent.status'),
      dataIndex: 'status',
      render: (v: string) => (
        <Tag color={CASE_STATUS_COLORS[v] ?? 'default'} data-status={v}>
          {t(`caseStatus.${v}`, { defaultValue: v })}
        </Tag>
      ),
    },
    { title: t('recent.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
  ];
  return (
    <Card
      title={t('recent.cases')}
      extra={<ScreenLink to="/case-management">{t('recent.viewAll')}</ScreenLink>}
      data-testid="dashboard-recent-cases"
      style={{ height: '100%' }}
    >
      <Table<RecentCase>
        size="small"
        rowKey="caseCode"
        loading={loading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={columns}
        dataSource={rows}
        locale={{ emptyText: t('recent.noCases') }}
        onRow={(c) => ({ 'data-testid': `dashboard-case-${c.caseCode}` }) as React.HTMLAttributes<HTMLElement>}
      />
    </Card>
  );
}

function RecentOrders({ side, rows, loading }: { side: Side; rows: RecentOrder[]; loading: boolean }) {
  const { t } = useTranslation('dashboard');
  const columns: ColumnsType<RecentOrder> = [
    {
      title: t('recent.orderCode'),
      dataIndex: 'orderCode',
      render: (v: string) => <ScreenLink to={orderDetailPath(v)}>{v}</ScreenLink>,
    },
    { title: t('recent.caseName'), dataIndex: 'caseName' },
    side === 'clinic'
      ? { title: t('recent.lab'), key: 'partner', render: (_, o) => o.lab.name }
      : { title: t('recent.clinic'), key: 'partner', render: (_, o) => o.clinic.name },
    {
      title: t('recent.patient'),
      dataIndex: 'patientName',
      render: (v: string | null) =>
        v === null ? <Typography.Text type="secondary">{t('recent.notShared')}</Typography.Text> : v,
    },
    { title: t('recent.status'), key: 'status', render: (_, o) => <OrderStatusTag order={o} t={t} /> },
    { title: t('recent.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
  ];
  return (
    <Card
      title={t('recent.orders')}
      extra={<ScreenLink to="/order-management">{t('recent.viewAll')}</ScreenLink>}
      data-testid="dashboard-recent-orders"
      style={{ height: '100%' }}
    >
      <Table<RecentOrder>
        size="small"
        rowKey="orderCode"
        loading={loading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={columns}
        dataSource={rows}
        locale={{ emptyText: t('recent.noOrders') }}
        onRow={(o) => ({ 'data-testid': `dashboard-order-${o.orderCode}` }) as React.HTMLAttributes<HTMLElement>}
      />
    </Card>
  );
}

function ChartCard({
  testId,
  title,
  data,
  loading,
  color,
}: {
  testId: string;
  title: string;
  data: LineChart | undefined;
  loading: boolean;
  color?: string;
}) {
  const { t } = useTranslation('dashboard');
  const skeleton = <Skeleton.Node active style={{ width: '100%', height: 220 }} />;
  return (
    <Card
      title={title}
      data-testid={testId}
      extra={
        data ? (
          <Typography.Text type="secondary" data-testid={`${testId}-total`} data-total={data.total}>
            {t('chart.total', { n: data.total })}
          </Typography.Text>
        ) : null
      }
      style={{ height: '100%' }}
    >
      {data ? (
        <Suspense fallback={skeleton}>
          <TrendChart
            points={data.points}
            label={title}
            color={color}
            emptyText={t('chart.noData')}
            pointText={(date, count) => t('chart.point', { date: formatDate(date), n: count })}
          />
        </Suspense>
      ) : loading ? (
        skeleton
      ) : (
        <Typography.Text type="secondary">{t('chart.noData')}</Typography.Text>
      )}
    </Card>
  );
}

/** The charts' heading and the period they cover, chosen by the user. */
function ChartHeading({
  title,
  period,
  onChange,
}: {
  title: string;
  period: DashboardPeriod;
  onChange: (p: DashboardPeriod) => void;
}) {
  const { t } = useTranslation('dashboard');
  return (
    <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      <Segmented<DashboardPeriod>
        data-testid="dashboard-period"
        aria-label={t('period.label')}
        value={period}
        onChange={onChange}
        options={PERIODS.map((p) => ({
          value: p,
          label: <span data-testid={`dashboard-period-${p}`}>{t(`period.${p}`)}</span>,
        }))}
      />
    </Space>
  );
}

function SideDashboard({ side, user }: { side: Side; user: UserInfo }) {
  const { t } = useTranslation('dashboard');
  const [period, setPeriod] = useState<DashboardPeriod>(DEFAULT_PERIOD);
  const index = useQuery(indexDashboardQuery());
  const cases = useQuery(lineChartQuery(period));
  const accepted = useQuery(acceptOrderLineChartQuery(period));
  const d = index.data;
  const stats = d ? statsFor(side, d) : statsFor(side, EMPTY);

  return (
    <div data-testid={`dashboard-${side}`}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <div>
          <Typography.Title level={3} style={{ marginBottom: 4 }}>
            {t('welcome', { name: user.displayName })}
          </Typography.Title>
          <Typography.Text type="secondary">
            {user.organization.name} · {t(side === 'clinic' ? 'subtitle.clinic' : 'subtitle.lab')}
          </Typography.Text>
        </div>
        {index.isError ? (
          <Alert
            type="error"
            showIcon
            title={t('loadFailed')}
            action={
              <Button size="small" onClick={() => void index.refetch()}>
                {t('retry')}
              </Button>
            }
          />
        ) : null}
        <Row gutter={[16, 16]}>
          {stats.map((s) => (
            <Col key={s.key} xs={12} md={8} xl={6}>
              <StatCard side={side} stat={s} loading={!d && index.isFetching} />
            </Col>
          ))}
        </Row>
        <ChartHeading title={t('chart.heading')} period={period} onChange={setPeriod} />
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={12}>
            <ChartCard
              testId="dashboard-chart-cases"
              title={t(side === 'clinic' ? 'chart.cases' : 'chart.received')}
              data={cases.data}
              loading={listLoading(cases)}
            />
          </Col>
          <Col xs={24} xl={12}>
            <ChartCard
              testId="dashboard-chart-accepted"
              title={t(side === 'clinic' ? 'chart.acceptedClinic' : 'chart.acceptedLab')}
              data={accepted.data}
              loading={listLoading(accepted)}
              color="#52c41a"
            />
          </Col>
        </Row>
        <Row gutter={[16, 16]}>
          {side === 'clinic' ? (
            <Col xs={24} xxl={12}>
              <RecentCases rows={d?.recentCases ?? []} loading={!d && index.isFetching} />
            </Col>
          ) : (
            <Access permission="order:view">
              <Col xs={24} xxl={12}>
                <OwnScorecard />
              </Col>
            </Access>
          )}
          <Col xs={24} xxl={12}>
            <RecentOrders side={side} rows={d?.recentOrders ?? []} loading={!d && index.isFetching} />
          </Col>
        </Row>
      </Space>
    </div>
  );
}

const EMPTY: IndexDashboard = {
  side: 'clinic',
  cases: { total: 0, byStatus: [] },
  orders: { total: 0, byStatus: [] },
  partners: 0,
  unreadMessages: 0,
  recentCases: [],
  recentOrders: [],
};

/** The welcome card: who is signed in, for which organization, in which role. */
function WelcomeCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation('layout');
  const type = user.organization.type;
  return (
    <Card data-testid="dashboard-generic">
      <Typography.Title level={3}>{t('dashboard.welcome', { name: user.displayName })}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('dashboard.generic')}</Typography.Paragraph>
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('dashboard.organization')}>{user.organization.name}</Descriptions.Item>
        <Descriptions.Item label={t('dashboard.type')}>
          {t(`orgType.${type}`, { defaultValue: String(type) })}
        </Descriptions.Item>
        <Descriptions.Item label={t('dashboard.role')}>{roleLabel(t, user.role.name)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

type DeviceSide = 'dealer' | 'oem';

/**
 * Where a scanner figure leads: the own space's scanner list, filtered as the figure counts (the list reads its
 * filters from the address, `device.`-prefixed: deviceListCodec).
 */
export const deviceListPath = (filter: Record<string, string | number | boolean> = {}) => {
  const qs = new URLSearchParams({ tab: 'scanners' });
  for (const [key, value] of Object.entries(filter)) qs.set(`device.${key}`, String(value));
  return `/own-space?${qs.toString()}`;
};

/** Scanner statuses in the order the dashboard shows them (contracts' DEVICE_STATUSES; repeated so no schema module is bundled). */
export const DEVICE_STATUSES = [
  'Activated',
  'DataTransferring',
  'DataTransferred',
  'InActiveted',
  'Disabled',
  'Canceled',
] as const;
/** Limit types: 1 designated laboratories only, 2 laboratories certified by the OEM, 3 unlimited. */
export const LIMIT_TYPES = [1, 2, 3] as const;

interface DeviceStat {
  key: string;
  title: string;
  value: number;
  /** The filtered scanner list the figure opens (those that count scanners), or null: plain text. */
  to: string | null;
}

/** The headline figures of a dealer's or an OEM's scanners, in order. */
export function deviceStatsFor(side: DeviceSide, d: DeviceDashboard | undefined, t: TFunction): DeviceStat[] {
  const stats: DeviceStat[] = [
    { key: 'total', title: t('devices.total'), value: d?.total ?? 0, to: deviceListPath() },
    {
      key: 'activatedThisMonth',
      title: t('devices.activatedThisMonth'),
      value: d?.activatedThisMonth ?? 0,
      to: deviceListPath({ activatedThisMonth: true }),
    },
    {
      key: 'warrantyEndingSoon',
      title: t('devices.warrantyEndingSoon'),
      value: d?.warrantyEndingSoon ?? 0,
      to: deviceListPath({ warrantyEnding: true }),
    },
    {
      key: 'lowBattery',
      title: t('devices.lowBattery'),
      value: d?.lowBattery ?? 0,
      to: deviceListPath({ lowBattery: true }),
    },
  ];
  // A dealer counts the clinics its scanners serve (clinics are not rows of the scanner list: plain text);
  // an OEM the scanners its catalogues added this month.
  if (side === 'dealer')
    stats.push({ key: 'clinicsServed', title: t('devices.clinicsServed'), value: d?.clinicsServed ?? 0, to: null });
  else
    stats.push({
      key: 'importedThisMonth',
      title: t('devices.importedThisMonth'),
      value: d?.importedThisMonth ?? 0,
      to: deviceListPath({ addedThisMonth: true }),
    });
  return stats;
}

function DeviceStatistic({ stat, loading }: { stat: DeviceStat; loading: boolean }) {
  return (
    <Statistic
      title={
        stat.to ? (
          <ScreenLink to={stat.to} testId={`dashboard-link-${stat.key}`}>
            {stat.title}
          </ScreenLink>
        ) : (
          stat.title
        )
      }
      loading={loading}
      value={stat.value}
      formatter={(v) => <span data-testid={`dashboard-stat-${stat.key}`}>{Number(v)}</span>}
    />
  );
}

/** A card of figures that break the scanners down (by status, by limit type). */
function BreakdownCard({
  testId,
  title,
  stats,
  loading,
}: {
  testId: string;
  title: string;
  stats: DeviceStat[];
  loading: boolean;
}) {
  return (
    <Card size="small" title={title} data-testid={testId} style={{ height: '100%' }}>
      <Row gutter={[16, 16]}>
        {stats.map((s) => (
          <Col key={s.key} xs={12} md={8}>
            <DeviceStatistic stat={s} loading={loading} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}

/**
 * A dealer's or an OEM's dashboard: the welcome card, then its scanners' figures (each opening the scanner list)
 * and their activations per day over the chosen period.
 */
function DeviceDashboardView({
  side,
  user,
  ...rest
}: {
  side: DeviceSide;
  user: UserInfo;
  'data-permission'?: string;
}) {
  // The scanner list's own names of statuses and limit types.
  const { t } = useTranslation(['dashboard', 'devices']);
  const [period, setPeriod] = useState<DashboardPeriod>(DEFAULT_PERIOD);
  const devices = useQuery(deviceDashboardQuery(period));
  const d = devices.data;
  const loading = !d && devices.isFetching;
  const byStatus: DeviceStat[] = DEVICE_STATUSES.map((status) => ({
    key: `status-${status}`,
    title: t(`devices:statusName.${status}`, { defaultValue: status }),
    value: d?.byStatus.find((r) => r.status === status)?.count ?? 0,
    to: deviceListPath({ status }),
  }));
  const byLimitType: DeviceStat[] = LIMIT_TYPES.map((limitType) => ({
    key: `limit-${limitType}`,
    title: t(`devices:limit.${limitType}`, { defaultValue: String(limitType) }),
    value: d?.byLimitType.find((r) => r.limitType === limitType)?.count ?? 0,
    to: deviceListPath({ limitType }),
  }));

  return (
    <div data-testid={`dashboard-${side}`} {...rest}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <WelcomeCard user={user} />
        {devices.isError ? (
          <Alert
            type="error"
            showIcon
            title={t('loadFailed')}
            action={
              <Button size="small" onClick={() => void devices.refetch()}>
                {t('retry')}
              </Button>
            }
          />
        ) : null}
        <Row gutter={[16, 16]}>
          {deviceStatsFor(side, d, t).map((s) => (
            <Col key={s.key} xs={12} md={8} xl={{ flex: '20%' }}>
              <Card size="small" style={{ height: '100%' }}>
                <DeviceStatistic stat={s} loading={loading} />
              </Card>
            </Col>
          ))}
        </Row>
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={12}>
            <BreakdownCard
              testId="dashboard-devices-by-status"
              title={t('devices.byStatus')}
              stats={byStatus}
              loading={loading}
            />
          </Col>
          <Col xs={24} xl={12}>
            <BreakdownCard
              testId="dashboard-devices-by-limit"
              title={t('devices.byLimitType')}
              stats={byLimitType}
              loading={loading}
            />
          </Col>
        </Row>
        <ChartHeading title={t('chart.devicesHeading')} period={period} onChange={setPeriod} />
        <ChartCard
          testId="dashboard-chart-activations"
          title={t('chart.activations')}
          data={d?.activations}
          loading={listLoading(devices)}
        />
      </Space>
    </div>
  );
}

/**
 * Clinic and laboratory variants with counts, charts and recent work; dealers and OEMs who may see scanners get
 * their scanners' figures under the welcome card; other organizations (the platform) the welcome card alone.
 */
export default function DashboardPage() {
  const { user } = useSession();
  if (!user) return null;
  const type = user.organization.type;
  if (type === OrgType.Clinic) return <SideDashboard side="clinic" user={user} />;
  if (type === OrgType.Lab) return <SideDashboard side="lab" user={user} />;
  if (type === OrgType.Dealer || type === OrgType.Oem)
    return (
      <Access permission="device:view" fallback={<WelcomeCard user={user} />}>
        <DeviceDashboardView side={type === OrgType.Dealer ? 'dealer' : 'oem'} user={user} />
      </Access>
    );
  return <WelcomeCard user={user} />;
}
