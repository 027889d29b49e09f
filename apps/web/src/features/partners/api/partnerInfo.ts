import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { partnerKeys } from './keys';
import type { PartnerDetail } from './types';

export const partnerInfo = (partnerCode: string) => http.post<PartnerDetail>('user/getPartnerInfo', { partnerCode });
export const partnerInfoQuery = (partnerCode: string) =>
  queryOptions({
    queryKey: partnerKeys.detail(partnerCode),
    queryFn: () => partnerInfo(partnerCode),
    retry: false,
  });
