import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { PdfModel } from './pdf-render.js';

type Reply = { id: number; ok: true; bytes: Uint8Array } | { id: number; ok: false; error: string };

/**
 * Report PDFs are drawn in one worker thread, so laying out text and subsetting fonts never holds the event loop
 * that answers the other calls; requests queue in the worker. The worker starts on the first PDF and stays.
 */
export class ReportPdfRenderer {
  private worker?: Worker;
  private seq = 0;
  private readonly waiting = new Map<number, (r: Reply) => void>();

  constructor(private readonly log?: FastifyBaseLogger) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    // From the bundle the worker is dist/pdf-worker.js beside this chunk; from source (tests, dev) the worker
    // registers tsx first, then loads the TypeScript module.
    const fromSource = import.meta.url.endsWith('.ts');
    const worker = fromSource
      ? new Worker(
          `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./pdf-worker.ts', import.meta.url).href)}); })`,
          { eval: true },
        )
      : new Worker(new URL('./pdf-worker.js', import.meta.url));
    worker.on('message', (r: Reply) => {
      this.waiting.get(r.id)?.(r);
      this.waiting.delete(r.id);
    });
    worker.on('error', (err) => this.log?.error({ err }, 'report PDF worker failed'));
    worker.on('exit', () => {
      for (const done of this.waiting.values()) done({ id: -1, ok: false, error: 'report PDF worker exited' });
      this.waiting.clear();
      this.worker = undefined;
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  async render(model: PdfModel): Promise<Buffer> {
    const id = ++this.seq;
    const worker = this.ensureWorker();
    const reply = await new Promise<Reply>((resolve) => {
      this.waiting.set(id, resolve);
      // The pictures are moved to the worker, not copied (each is a buffer of its own, read for this PDF).
      const pictures = model.images.map((i) => i.bytes.buffer as ArrayBuffer);
      worker.postMessage({ id, model }, [...new Set(pictures)]);
    });
    if (!reply.ok) throw new Error(reply.error);
    return Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength);
  }

  async stop() {
    await this.worker?.terminate();
  }
}
