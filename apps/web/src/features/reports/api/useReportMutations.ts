import { useCallback, useMemo } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportDetail } from '@portal/contracts';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { reportKeys } from './keys';
import { deleteReport } from './reports';

/** Deletes a report; the case's report lists refresh. */
export function useDeleteReport(reactions?: Reactions<null, string>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: reportKeys.lists }) }),
    mutationFn: deleteReport,
  });
}

/** What to call once a report was created or its draft saved: the case's report lists name its status. */
export function useReportListsChanged(): () => void {
  const qc = useQueryClient();
  return useCallback(() => void qc.invalidateQueries({ queryKey: reportKeys.lists }), [qc]);
}

/** The cache of one report as its designer changes it. */
export function useReportChanged(reportCode: string) {
  const qc = useQueryClient();
  return useMemo(
    () => ({
      /** A snapshot was taken or deleted: the report is read again; resolves once it is. */
      snapshots: () => qc.invalidateQueries({ queryKey: reportKeys.detail(reportCode) }),
      /** Published: the report as the server answered, and the lists (they name the version). */
      published: (report: ReportDetail) => {
        qc.setQueryData(reportKeys.detail(reportCode), report);
        void qc.invalidateQueries({ queryKey: reportKeys.lists });
      },
    }),
    [qc, reportCode],
  );
}
