import { useCallback } from 'react';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AddAnnotationBody } from '@portal/contracts';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { invalidateWork } from '../../orders/api/keys';
import { storageKeys } from '../../storage/api/keys';
import { addAnnotation, deleteAnnotation, type Annotation } from './annotations';
import { createCase } from './createCase';
import { deleteCases } from './deleteCases';
import { deleteFile } from './deleteFile';
import { emptyRecycleBin } from './emptyRecycleBin';
import { eraseCases, releaseLegalHold, setLegalHold, type Certificate, type LegalHoldState } from './erasure';
import { caseKeys } from './keys';
import { purgeCases } from './purgeCases';
import { restoreCases } from './restoreCases';
import type { CaseDetail, CaseInput } from './types';
import { updateCase } from './updateCase';

/** Cases moved in or out of the recycle bin: the bin, the lists, pages and dashboard counts, and storage used. */
function refreshCases(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: caseKeys.all });
  void invalidateWork(qc);
  void qc.invalidateQueries({ queryKey: storageKeys.all });
}

/** A case's files changed: its status and file count (its pages, its orders' files, the dashboard), storage used. */
function refreshFiles(qc: QueryClient) {
  void invalidateWork(qc);
  void qc.invalidateQueries({ queryKey: storageKeys.all });
}

/** Erases a patient's cases (answers the certificate): like a purge, everything about the cases is fetched again. */
export function useEraseCases(reactions?: Reactions<Certificate, { caseCodes: string[]; reason: string }>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { settled: () => refreshCases(qc) }),
    mutationFn: (v: { caseCodes: string[]; reason: string }) => eraseCases(v.caseCodes, v.reason),
  });
}

/** Sets (with its reason) or releases (null) a case's legal hold: its page and lists are fetched again. */
export function useLegalHold(reactions?: Reactions<LegalHoldState, { caseCode: string; reason: string | null }>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { settled: () => void qc.invalidateQueries({ queryKey: caseKeys.all }) }),
    mutationFn: (v: { caseCode: string; reason: string | null }) =>
      v.reason === null ? releaseLegalHold(v.caseCode) : setLegalHold(v.caseCode, v.reason),
  });
}

/** Moves cases to the recycle bin. */
export function useDeleteCases(reactions?: Reactions<null, string[]>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshCases(qc) }), mutationFn: deleteCases });
}

/** Brings cases back from the recycle bin. */
export function useRestoreCases(reactions?: Reactions<null, string[]>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshCases(qc) }), mutationFn: restoreCases });
}

/** Deletes cases of the recycle bin for good. */
export function usePurgeCases(reactions?: Reactions<null, string[]>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshCases(qc) }), mutationFn: purgeCases });
}

/** Deletes every case of the recycle bin for good. */
export function useEmptyRecycleBin(reactions?: Reactions<null, void>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshCases(qc) }), mutationFn: emptyRecycleBin });
}

/** Creates a case, or edits one (`caseCode`); its name and patient show on its orders and the dashboard too. */
export function useSaveCase(reactions?: Reactions<CaseDetail, { caseCode?: string; input: CaseInput }>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void invalidateWork(qc) }),
    mutationFn: ({ caseCode, input }) => (caseCode ? updateCase({ caseCode, ...input }) : createCase(input)),
  });
}

/** Deletes a file of a case. */
export function useDeleteFile(reactions?: Reactions<null, string>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshFiles(qc) }), mutationFn: deleteFile });
}

/** What to call once files went into a case outside a mutation (a resumable upload, a saved screenshot). */
export function useCaseFilesChanged(): () => void {
  const qc = useQueryClient();
  return useCallback(() => refreshFiles(qc), [qc]);
}

/** Pins a note on a case's scans; the notes are read again, whatever the answer. */
export function useAddAnnotation(caseCode: string, reactions?: Reactions<Annotation, AddAnnotationBody>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, {
      settled: () => void qc.invalidateQueries({ queryKey: caseKeys.annotations(caseCode) }),
    }),
    mutationFn: addAnnotation,
  });
}

/** Removes a note from a case's scans; the notes are read again, whatever the answer. */
export function useDeleteAnnotation(caseCode: string, reactions?: Reactions<null, string>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, {
      settled: () => void qc.invalidateQueries({ queryKey: caseKeys.annotations(caseCode) }),
    }),
    mutationFn: deleteAnnotation,
  });
}
