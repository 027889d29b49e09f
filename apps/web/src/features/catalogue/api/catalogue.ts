import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { catalogueKeys } from './keys';
import type {
  DeliveryEstimate,
  LabCalendarInput,
  LabCalendarResult,
  LabProduct,
  ProductList,
  SaveProductBody,
} from './types';

/** A laboratory's products: its own (no partnerCode) or, for a clinic, those of the partnership's laboratory. */
export const productsQuery = (partnerCode?: string) =>
  queryOptions({
    queryKey: catalogueKeys.products(partnerCode),
    queryFn: () => http.post<ProductList>('catalogue/products', partnerCode ? { partnerCode } : {}),
    staleTime: 30_000,
  });

/** Silent: the product form marks a taken name on its field. */
export const saveProduct = (body: Partial<SaveProductBody> & Pick<SaveProductBody, 'name' | 'workType'>) =>
  http.write<LabProduct>('catalogue/saveProduct', body, { silent: true });

export const deleteProduct = (productCode: string) => http.write<null>('catalogue/deleteProduct', { productCode });

export const calendarQuery = () =>
  queryOptions({
    queryKey: catalogueKeys.calendar,
    queryFn: () => http.post<LabCalendarResult>('catalogue/calendar'),
  });

export const saveCalendar = (body: LabCalendarInput) => http.write<LabCalendarResult>('catalogue/saveCalendar', body);

/** When an order of the product sent now would be due; fetched again each minute (the day may turn). */
export const estimateQuery = (partnerCode: string, productCode: string) =>
  queryOptions({
    queryKey: catalogueKeys.estimate(partnerCode, productCode),
    queryFn: () => http.post<DeliveryEstimate>('catalogue/estimate', { partnerCode, productCode }, { silent: true }),
    staleTime: 60_000,
  });
