import { ExportStatus } from '@portal/contracts';

/** Still running: poll export/status while default (0) or packing (5). */
export function isExportRunning(status: number): boolean {
  return status === ExportStatus.Default || status === ExportStatus.Packing;
}

/** The message key (cases namespace) for a finished export that produced no download. */
export function exportMessageKey(status: number): string | null {
  switch (status) {
    case ExportStatus.Fail:
      return 'export.fail';
    case ExportStatus.NoFile:
      return 'export.noFile';
    case ExportStatus.NoRequiredFile:
      return 'export.noRequiredFile';
    default:
      return null;
  }
}
