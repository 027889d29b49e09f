import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CompanyInfo } from '@portal/contracts';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { companyKeys, editScanRetention } from './company';

/** Sets the clinic's retention of its scans at its laboratories; the organization's information takes the answer. */
export function useEditScanRetention(reactions?: Reactions<CompanyInfo, number>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: (saved) => qc.setQueryData(companyKeys.info, saved) }),
    mutationFn: editScanRetention,
  });
}
