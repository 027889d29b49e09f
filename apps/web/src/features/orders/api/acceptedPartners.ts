import { queryOptions } from '@tanstack/react-query';
import type { OrderParty } from '@portal/contracts';
import { http } from '../../../lib/http';
import { partnerKeys } from '../../partners/api/keys';

/**
 * The laboratories the clinic can send to (its accepted partnerships), asked with order:create alone: a role that
 * sends orders needs no partner screen. Under the partners' keys, so a partnership's change refreshes it.
 */
export const acceptedPartnersQuery = () =>
  queryOptions({
    queryKey: partnerKeys.sendable,
    queryFn: () => http.post<{ list: OrderParty[] }>('order/labs'),
    select: (r) => r.list,
    staleTime: 60_000,
  });
