import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { activateDevice } from './activateDevice';
import { assignDealer } from './assignDealer';
import { saveCertifiedLabs } from './certifiedLabs';
import { saveDesignatedLabs } from './designatedLabs';
import { editDeviceName } from './editDeviceName';
import { importCatalog, type CatalogImportResult } from './importCatalog';
import { deviceKeys } from './keys';
import { dashboardKeys } from '../../dashboard/api/keys';

/** The scanner lists, and the dashboard whose figures count the scanners (dealers', OEMs', clinics'). */
const refreshDevices = (qc: QueryClient) => {
  void qc.invalidateQueries({ queryKey: deviceKeys.all });
  void qc.invalidateQueries({ queryKey: dashboardKeys.all });
};
type Result<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/** Renames a scanner; the scanner lists refresh. */
export function useEditDeviceName(
  reactions?: Reactions<Result<typeof editDeviceName>, Parameters<typeof editDeviceName>[0]>,
) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshDevices(qc) }), mutationFn: editDeviceName });
}

/** Binds a scanner to the clinic by its serial number and activation code; the scanner lists refresh. */
export function useActivateDevice(
  reactions?: Reactions<Result<typeof activateDevice>, Parameters<typeof activateDevice>[0]>,
) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshDevices(qc) }), mutationFn: activateDevice });
}

/** Assigns scanners to a dealer; the scanner lists refresh. */
export function useAssignDealer(
  reactions?: Reactions<Result<typeof assignDealer>, Parameters<typeof assignDealer>[0]>,
) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { success: () => refreshDevices(qc) }), mutationFn: assignDealer });
}

/** Imports a product catalogue, all rows or none; once every row went in, the scanner lists refresh. */
export function useImportCatalog(reactions?: Reactions<CatalogImportResult, File>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: (res) => (res.errors.length === 0 ? refreshDevices(qc) : undefined) }),
    mutationFn: importCatalog,
  });
}

/** Replaces the laboratories a limit-type-1 scanner may send to; that scanner's list refreshes. */
export function useSaveDesignatedLabs(reactions?: Reactions<null, { serialNumber: string; labCodes: string[] }>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, {
      success: (_d, v) => void qc.invalidateQueries({ queryKey: deviceKeys.designatedLabs(v.serialNumber) }),
    }),
    mutationFn: saveDesignatedLabs,
  });
}

/** Replaces the laboratories certified for the OEM's limit-type-2 scanners; the list refreshes. */
export function useSaveCertifiedLabs(reactions?: Reactions<null, string[]>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void qc.invalidateQueries({ queryKey: deviceKeys.certifiedLabs }) }),
    mutationFn: saveCertifiedLabs,
  });
}
