import type { z } from 'zod';
import type {
  OrderActionBody,
  OrderActionResult,
  OrderDetail as OrderDetailSchema,
  OrderEvent as OrderEventSchema,
  OrderListQuery,
  OrderSummary as OrderSummarySchema,
  RequiredFieldsResult as RequiredFieldsResultSchema,
} from '@portal/contracts';

export type {
  CaseFile,
  CreateOrderBody,
  OrderAction,
  OrderAttachment,
  OrderMessage,
  OrderStatus,
  PrescriptionField,
  RequiredFieldRule,
  ToothItem,
} from '@portal/contracts';
export type OrderSummary = z.infer<typeof OrderSummarySchema>;
export type OrderDetail = z.infer<typeof OrderDetailSchema>;
export type OrderEvent = z.infer<typeof OrderEventSchema>;
export type OrderActionInput = z.infer<typeof OrderActionBody>;
export type OrderActionResults = z.infer<typeof OrderActionResult>;
export type RequiredFieldsResult = z.infer<typeof RequiredFieldsResultSchema>;
export type ExportFormat = 'xlsx' | 'csv';
/** The list request as sent (defaults filled by the caller). */
export type OrderQuery = Partial<z.infer<typeof OrderListQuery>> & { pageNum: number; pageSize: number };
/** The list filters without paging, plus the file format. */
export type OrderExportInput = Omit<OrderQuery, 'pageNum' | 'pageSize'> & { format: ExportFormat };
export interface Page<T> {
  total: number;
  list: T[];
}
