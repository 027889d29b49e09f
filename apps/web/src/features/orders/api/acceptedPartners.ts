import { queryOptions } from '@tanstack/react-query';
import { PartnerStatus } from '@portal/contracts';
import { listPartners } from '../../partners';
import type { PartnerQuery } from '../../partners';
import { partnerKeys } from '../../partners/api/keys';

/** The 'mine' tab holds accepted partnerships; 100 is the page limit and far above a real partner count. */
const MINE: PartnerQuery = { tab: 'mine', pageNum: 1, pageSize: 100 };

/** Accepted partners: the other side of every order (the list's partner filter, the send dialog's labs). */
export const acceptedPartnersQuery = () =>
  queryOptions({
    queryKey: partnerKeys.list(MINE),
    queryFn: () => listPartners(MINE),
    select: (page) => page.list.filter((p) => p.status === PartnerStatus.Accepted),
    staleTime: 60_000,
  });
