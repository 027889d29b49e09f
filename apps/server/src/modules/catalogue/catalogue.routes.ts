import {
  CatalogueManage,
  DeliveryEstimate,
  DeliveryEstimateQuery,
  EmptyEnvelope,
  LabCalendar,
  LabCalendarResult,
  LabProduct,
  ProductCodeBody,
  ProductListQuery,
  ProductListResult,
  SaveProductBody,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { CatalogueService } from './catalogue.service.js';

/** A laboratory's products and working calendar; the clinic's delivery estimate. */
export function catalogueModule(catalogue: CatalogueService): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/catalogue/products',
        {
          schema: {
            tags: ['catalogue'],
            summary: "A laboratory's products: its own, or for a clinic those of an accepted partnership's laboratory",
            body: ProductListQuery,
            response: { 200: envelope(ProductListResult) },
          },
          config: { permission: 'order:view', errors: ['NOT_FOUND', 'PARTNER_NOT_ACCEPTED'] },
        },
        async (request) => ok(request, await catalogue.products(request.auth, request.body.partnerCode)),
      );

      app.post(
        '/catalogue/saveProduct',
        {
          schema: {
            tags: ['catalogue'],
            summary: 'A laboratory adds a product (no productCode) or changes one of its own',
            body: SaveProductBody,
            response: { 200: envelope(LabProduct) },
          },
          config: { permission: CatalogueManage, errors: ['NOT_FOUND', 'PRODUCT_NAME_TAKEN'] },
        },
        async (request) => ok(request, await catalogue.saveProduct(request.auth, request.body)),
      );

      app.post(
        '/catalogue/deleteProduct',
        {
          schema: {
            tags: ['catalogue'],
            summary: 'A laboratory removes a product from its catalogue (orders naming it keep it)',
            body: ProductCodeBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: CatalogueManage, errors: ['NOT_FOUND'] },
        },
        async (request) => {
          await catalogue.deleteProduct(request.auth, request.body.productCode);
          return ok(request, null);
        },
      );

      app.post(
        '/catalogue/calendar',
        {
          schema: {
            tags: ['catalogue'],
            summary: "A laboratory's working weekdays, closed dates and timezone",
            response: { 200: envelope(LabCalendarResult) },
          },
          config: { permission: 'order:view' },
        },
        async (request) => ok(request, await catalogue.calendar(request.auth)),
      );

      app.post(
        '/catalogue/saveCalendar',
        {
          schema: {
            tags: ['catalogue'],
            summary: 'A laboratory replaces its working weekdays, closed dates and timezone',
            body: LabCalendar,
            response: { 200: envelope(LabCalendarResult) },
          },
          config: { permission: CatalogueManage },
        },
        async (request) => ok(request, await catalogue.saveCalendar(request.auth, request.body)),
      );

      app.post(
        '/catalogue/estimate',
        {
          schema: {
            tags: ['catalogue'],
            summary:
              "When an order of a product sent now would be due: its turnaround in the laboratory's working days",
            body: DeliveryEstimateQuery,
            response: { 200: envelope(DeliveryEstimate) },
          },
          config: { permission: 'order:create', errors: ['NOT_FOUND', 'PARTNER_NOT_ACCEPTED'] },
        },
        async (request) =>
          ok(request, await catalogue.estimate(request.auth, request.body.partnerCode, request.body.productCode)),
      );
    },
  };
}
