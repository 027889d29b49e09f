import { parentPort } from 'node:worker_threads';
import { renderReportPdf, type PdfModel } from './pdf-render.js';

/** Renders report PDFs off the server's event loop; the fonts it parsed stay warm for the next one. */
parentPort!.on('message', (msg: { id: number; model: PdfModel }) => {
  renderReportPdf(msg.model).then(
    (pdf) => {
      // Moved, not copied, when the PDF owns its whole buffer (a report with pictures is tens of megabytes).
      const owned = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength;
      const bytes = owned ? new Uint8Array(pdf.buffer) : new Uint8Array(pdf);
      parentPort!.postMessage({ id: msg.id, ok: true, bytes }, [bytes.buffer as ArrayBuffer]);
    },
    (err: unknown) => parentPort!.postMessage({ id: msg.id, ok: false, error: String(err) }),
  );
});
