import { saveBlob } from '../../../lib/download';
import { reportPdf } from '../api/reports';

/** Downloads the report's PDF (the draft, or a published version) under the server's file name. */
export async function downloadReportPdf(reportCode: string, version?: number) {
  const { blob, filename } = await reportPdf(reportCode, version);
  saveBlob(blob, filename ?? 'report.pdf');
}
