import { DeviceDashboard, IndexDashboard, LineChart, LineChartBody, envelope } from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { DashboardService } from './dashboard.service.js';

export function dashboardModule(dashboard: DashboardService): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/user/indexDashboard',
        {
          schema: {
            tags: ['dashboard'],
            summary: "Counts by status, partners, unread notifications, recent cases and orders for the caller's side",
            response: { 200: envelope(IndexDashboard) },
          },
          config: { permission: 'dashboard:view' },
        },
        async (request) => ok(request, await dashboard.index(request.auth)),
      );

      app.post(
        '/user/lineChart',
        {
          schema: {
            tags: ['dashboard'],
            summary:
              "Per day over the period, in the caller's timezone: a clinic's new cases, a laboratory's received orders",
            body: LineChartBody,
            response: { 200: envelope(LineChart) },
          },
          config: { permission: 'dashboard:view' },
        },
        async (request) => ok(request, await dashboard.lineChart(request.auth, request.body.period, request.timezone)),
      );

      app.post(
        '/user/acceptOrderLineChart',
        {
          schema: {
            tags: ['dashboard'],
            summary: 'Orders accepted per day over the period',
            body: LineChartBody,
            response: { 200: envelope(LineChart) },
          },
          config: { permission: 'dashboard:view' },
        },
        async (request) =>
          ok(request, await dashboard.acceptedLineChart(request.auth, request.body.period, request.timezone)),
      );

      app.post(
        '/dashboard/devices',
        {
          schema: {
            tags: ['dashboard'],
            summary:
              "A dealer's or an OEM's scanners: by status and limit type, activations, warranties, batteries, per day",
            body: LineChartBody,
            response: { 200: envelope(DeviceDashboard) },
          },
          // The same scanners the device list shows, so the same permission.
          config: { permission: 'device:view' },
        },
        async (request) => ok(request, await dashboard.devices(request.auth, request.body.period, request.timezone)),
      );
    },
  };
}
