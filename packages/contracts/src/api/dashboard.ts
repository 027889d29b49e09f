import { z } from 'zod';
import { CASE_STATUSES, ORDER_STATUSES } from '../enums.js';
import { DEVICE_STATUSES } from './cases.js';
import { OrderSummary } from './orders.js';

export const DASHBOARD_PERIODS = ['7d', '30d', '90d', '365d'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
export const PERIOD_DAYS: Record<DashboardPeriod, number> = { '7d': 7, '30d': 30, '90d': 90, '365d': 365 };

export const IndexDashboard = z.object({
  side: z.enum(['clinic', 'lab']),
  cases: z.object({
    total: z.number(),
    byStatus: z.array(z.object({ status: z.enum(CASE_STATUSES), count: z.number() })),
  }),
  orders: z.object({
    total: z.number(),
    byStatus: z.array(z.object({ status: z.enum(ORDER_STATUSES), count: z.number() })),
  }),
  partners: z.number(),
  // The caller's unread notifications of every type (order messages and order changes), as the bell counts them.
  unreadMessages: z.number(),
  recentCases: z.array(
    z.object({
      caseCode: z.string(),
      name: z.string(),
      patientName: z.string(),
      status: z.enum(CASE_STATUSES),
      createdAt: z.string(),
    }),
  ),
  recentOrders: z.array(OrderSummary),
});
export type IndexDashboard = z.infer<typeof IndexDashboard>;
export const LineChartBody = z.object({ period: z.enum(DASHBOARD_PERIODS).default('30d') });
/** One point per day of the period, oldest first, days in the caller's timezone; empty days count 0. */
export const LineChart = z.object({
  total: z.number(),
  points: z.array(z.object({ date: z.string(), count: z.number() })),
});
export type LineChart = z.infer<typeof LineChart>;

/** A dealer's or an OEM's scanners (a clinic's own, the platform's all), as its dashboard shows them. */
export const DeviceDashboard = z.object({
  total: z.number(),
  byStatus: z.array(z.object({ status: z.enum(DEVICE_STATUSES), count: z.number() })),
  byLimitType: z.array(z.object({ limitType: z.number(), count: z.number() })),
  /** Activated since the first of the month, in the caller's timezone. */
  activatedThisMonth: z.number(),
  /** Warranty ends today or within the next 90 days. */
  warrantyEndingSoon: z.number(),
  /** Battery health reported below 80 %. */
  lowBattery: z.number(),
  /** Distinct clinics the scanners are bound to (a dealer's figure; null for others). */
  clinicsServed: z.number().nullable(),
  /** Scanners added from catalogues since the first of the month (an OEM's figure; null for others). */
  importedThisMonth: z.number().nullable(),
  /** Activations per day over the period. */
  activations: LineChart,
});
export type DeviceDashboard = z.infer<typeof DeviceDashboard>;
