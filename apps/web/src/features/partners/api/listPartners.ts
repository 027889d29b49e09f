import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { partnerKeys } from './keys';
import type { Page, Partner, PartnerQuery } from './types';

/** Silent: the page shows the no-access answer (2031) as its content instead of a toast. */
export const listPartners = (q: PartnerQuery) => http.post<Page<Partner>>('partner/list', q, { silent: true });
export const listPartnersQuery = (q: PartnerQuery) =>
  queryOptions({
    queryKey: partnerKeys.list(q),
    queryFn: () => listPartners(q),
    placeholderData: keepPreviousData,
    retry: false,
  });
