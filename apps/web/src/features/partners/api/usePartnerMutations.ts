import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import type { RowAction } from '../lib/partnerRules';
import { acceptPartner } from './acceptPartner';
import { applyPartner } from './applyPartner';
import { cancelPartner } from './cancelPartner';
import { inviteLab } from './inviteLab';
import { partnerKeys } from './keys';
import { rejectPartner } from './rejectPartner';
import { terminatePartner } from './terminatePartner';
import type { Partner, PartnerDetail, PartnerTarget } from './types';

const refreshPartners = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: partnerKeys.all });

export interface PartnerAct {
  action: RowAction;
  partner: Partner;
  reason?: string;
}

function runAction({ action, partner, reason }: PartnerAct) {
  const body = { partnerCode: partner.partnerCode, ...(reason ? { reason } : {}) };
  switch (action) {
    case 'accept':
      return acceptPartner(body);
    case 'reject':
      return rejectPartner(body);
    case 'cancel':
      return cancelPartner(body);
    case 'terminate':
      return terminatePartner(body);
    case 'reapply':
      return applyPartner({ organizationCode: partner.organization.code ?? '' });
  }
}

/**
 * One move on a partnership (accept, reject, cancel, terminate, apply again). An illegal move (2032) is shown by the
 * http client; the row may have changed meanwhile, so the partner lists reload either way.
 */
export function usePartnerAction(reactions?: Reactions<PartnerDetail, PartnerAct>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { settled: () => refreshPartners(qc) }), mutationFn: runAction });
}

/** Applies to become the partner of an organization found by code or name; the partner lists refresh. */
export function useApplyPartner(reactions?: Reactions<PartnerDetail, PartnerTarget>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => refreshPartners(qc) }),
    mutationFn: (target) => applyPartner({ organizationCode: target.organizationCode }),
  });
}

/** Invites a laboratory not registered yet (a temporary partner); the partner lists refresh. */
export function useInviteLab(reactions?: Reactions<PartnerDetail, string>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshPartners(qc) }), mutationFn: inviteLab });
}
