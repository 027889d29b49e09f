import { z } from 'zod';
import { CreateOrderBody, OrderActionBody, OrderActionResult, OrderCodeBody, OrderDetail, OrderListQuery, OrderListResult, envelope } from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { OrdersService } from './orders.service.js';

export function ordersModule(p: Platform, orders = new OrdersService(p.db)): Module {
  return {
    privateRoutes(app) {
      app.post('/order/create', {
        schema: { tags: ['orders'], summary: 'Send one or many cases to a partner laboratory: one order per case, all or none', body: CreateOrderBody, response: { 200: envelope(z.object({ list: z.array(OrderDetail) })) } },
      }, async (request) => ok(request, await orders.create(request.auth, request.body)));

      app.post('/order/action', {
        schema: { tags: ['orders'], summary: 'accept, startProcessing, ready, ship (tracking number), reject (reason), cancel, complete: one or many orders, each answering for itself', body: OrderActionBody, response: { 200: envelope(OrderActionResult) } },
      }, async (request) => ok(request, await orders.act(request.auth, request.body)));

      app.post('/order/list', {
        schema: { tags: ['orders'], summary: "The side's orders: paging, status, type, partner, date range", body: OrderListQuery, response: { 200: envelope(OrderListResult) } },
      }, async (request) => ok(request, await orders.list(request.auth, request.body)));

      app.post('/order/detail', {
        schema: { tags: ['orders'], summary: 'An order with its tooth items and the timeline both sides see', body: OrderCodeBody, response: { 200: envelope(OrderDetail) } },
      }, async (request) => ok(request, await orders.detail(request.auth, request.body.orderCode)));
    },
  };
}
