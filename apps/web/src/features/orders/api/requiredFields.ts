import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { orderKeys } from './keys';
import type { RequiredFieldsResult } from './types';

/** A laboratory's prescription rules: its own (no partnerCode) or, for a clinic, those of the partnership's laboratory. */
export const requiredFields = (partnerCode?: string) =>
  http.post<RequiredFieldsResult>('order/requiredFields', partnerCode ? { partnerCode } : {});
export const requiredFieldsQuery = (partnerCode?: string) =>
  queryOptions({
    queryKey: orderKeys.requiredFields(partnerCode),
    queryFn: () => requiredFields(partnerCode),
  });
