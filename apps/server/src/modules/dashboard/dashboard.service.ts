import {
  CASE_STATUSES,
  DEVICE_STATUSES,
  ORDER_STATUSES,
  OrgType,
  PERIOD_DAYS,
  type DashboardPeriod,
} from '@portal/contracts';
import type { AuthContext } from '../../platform/auth.js';
import type { Db } from '../../platform/db.js';
import { OrdersService, sideOf, toSummary } from '../orders/orders.service.js';
import { dashboardRepository, deviceDashboardRepository } from './dashboard.repository.js';

const RECENT = 5;

/**
 * The clinic's and the laboratory's dashboards. A clinic counts its cases and the orders it sent; a
 * laboratory counts the orders it received, and the cases that came with them.
 */
export class DashboardService {
  constructor(private readonly db: Db) {}

  async index(auth: AuthContext) {
    const side = sideOf(auth);
    const org = auth.organizationId;
    const [caseCounts, orderCounts, recentCases, recentOrders, partners, unread] = await Promise.all([
      dashboardRepository.caseCounts(this.db, side, org),
      dashboardRepository.orderCounts(this.db, side, org),
      dashboardRepository.recentCases(this.db, side, org, RECENT),
      OrdersService.recent(this.db, side, org, RECENT),
      dashboardRepository.partners(this.db, side, org),
      dashboardRepository.unreadNotifications(this.db, auth.userId),
    ]);
    const byStatus = <S extends string>(statuses: readonly S[], rows: { status: string; count: number }[]) =>
      statuses.map((status) => ({ status, count: rows.find((r) => r.status === status)?.count ?? 0 }));
    const sum = (rows: { count: number }[]) => rows.reduce((s, r) => s + r.count, 0);
    return {
      side,
      cases: { total: sum(caseCounts), byStatus: byStatus(CASE_STATUSES, caseCounts) },
      orders: { total: sum(orderCounts), byStatus: byStatus(ORDER_STATUSES, orderCounts) },
      partners: partners?.count ?? 0,
      unreadMessages: unread?.count ?? 0,
      recentCases: recentCases.map((c) => ({
        caseCode: c.code,
        name: c.name,
        patientName: c.patient_name,
        status: c.status,
        createdAt: new Date(c.created_at).toISOString(),
      })),
      recentOrders: recentOrders.map((r) => toSummary(r, side)),
    };
  }

  /** A clinic's new cases per day; a laboratory's received orders per day. */
  async lineChart(auth: AuthContext, period: DashboardPeriod, timezone: string) {
    const days = PERIOD_DAYS[period];
    return series(
      sideOf(auth) === 'clinic'
        ? await dashboardRepository.casesPerDay(this.db, auth.organizationId, days, timezone)
        : await dashboardRepository.ordersReceivedPerDay(this.db, auth.organizationId, days, timezone),
    );
  }

  /** Orders accepted per day: those the laboratory accepted, or the clinic's orders its laboratories accepted. */
  async acceptedLineChart(auth: AuthContext, period: DashboardPeriod, timezone: string) {
    const days = PERIOD_DAYS[period];
    return series(await dashboardRepository.acceptedPerDay(this.db, sideOf(auth), auth.organizationId, days, timezone));
  }

  /**
   * The scanners a dealer sells or an OEM makes (as the device list scopes them): counts by status and limit type,
   * this month's activations and imports, warranties ending within 90 days, weak batteries, activations per day.
   */
  async devices(auth: AuthContext, period: DashboardPeriod, timezone: string) {
    const { orgType, organizationId: org } = auth;
    const [counts, figures, perDay] = await Promise.all([
      deviceDashboardRepository.byStatusAndLimit(this.db, orgType, org),
      deviceDashboardRepository.figures(this.db, orgType, org, timezone),
      deviceDashboardRepository.activationsPerDay(this.db, orgType, org, PERIOD_DAYS[period], timezone),
    ]);
    const count = (match: (r: (typeof counts)[number]) => boolean) =>
      counts.filter(match).reduce((s, r) => s + r.count, 0);
    return {
      total: count(() => true),
      byStatus: DEVICE_STATUSES.map((status) => ({ status, count: count((r) => r.status === status) })),
      byLimitType: DEVICE_LIMIT_TYPES.map((limitType) => ({
        limitType,
        count: count((r) => r.limit_type === limitType),
      })),
      activatedThisMonth: figures.activated,
      warrantyEndingSoon: figures.warranty,
      lowBattery: figures.battery,
      clinicsServed: orgType === OrgType.Dealer ? figures.clinics : null,
      importedThisMonth: orgType === OrgType.Oem ? figures.imported : null,
      activations: series(perDay),
    };
  }
}

/** A scanner's limit types (spec: 1 designated laboratories, 2 OEM-certified laboratories, 3 any). */
const DEVICE_LIMIT_TYPES = [1, 2, 3] as const;

/** Counts per day of the period in the caller's timezone (empty days included), and their sum. */
function series(rows: { day: string; count: number }[]) {
  return { total: rows.reduce((s, r) => s + r.count, 0), points: rows.map((r) => ({ date: r.day, count: r.count })) };
}
