import type { z } from 'zod';
import type {
  DeliveryEstimate as DeliveryEstimateSchema,
  LabCalendar as LabCalendarSchema,
  LabCalendarResult as LabCalendarResultSchema,
  ProductListResult as ProductListResultSchema,
} from '@portal/contracts';

export type { LabProduct, SaveProductBody } from '@portal/contracts';
export type ProductList = z.infer<typeof ProductListResultSchema>;
export type LabCalendarInput = z.input<typeof LabCalendarSchema>;
export type LabCalendarResult = z.infer<typeof LabCalendarResultSchema>;
export type DeliveryEstimate = z.infer<typeof DeliveryEstimateSchema>;
