import { PartnerStatus } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { listPartners } from '../../partners';
import { partnerKeys } from '../../partners/api/keys';
import type { LabRef } from './designatedLabs';

const PAGE_SIZE = 100;
const MAX_PAGES = 20;

/** The clinic's accepted partner laboratories (all pages of partner/list), as organization code and name. */
export async function listPartnerLabs(): Promise<LabRef[]> {
  const out = new Map<string, LabRef>();
  for (let pageNum = 1; pageNum <= MAX_PAGES; pageNum++) {
    const page = await listPartners({ tab: 'mine', pageNum, pageSize: PAGE_SIZE });
    for (const p of page.list) {
      if (p.status === PartnerStatus.Accepted && p.organization.code)
        out.set(p.organization.code, { code: p.organization.code, name: p.organization.name });
    }
    if (page.list.length < PAGE_SIZE || pageNum * PAGE_SIZE >= page.total) break;
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
}
export const partnerLabsQuery = () =>
  queryOptions({ queryKey: partnerKeys.labs, queryFn: listPartnerLabs, staleTime: 60_000 });
