import { Worker } from 'node:worker_threads';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.js';
import type { BlobStore } from '../../platform/storage.js';
import { readAll } from '../../platform/storage.js';
import { EventsService } from '../events/events.service.js';
import { filesRepository } from './files.repository.js';

/** Models above this size are served as they are: preparing them would hold too much in memory. */
const MAX_PREPARE_BYTES = 512 * 1024 * 1024;

type Reply =
  | { id: number; ok: true; bytes: Uint8Array; unit: 'mm' | 'm' | 'in' }
  /** invalid: the model cannot be shown (no retry helps); unit 'unknown' when its size fits no plausible unit. */
  | { id: number; ok: false; invalid: boolean; error: string; unit?: 'unknown' };

/**
 * The background job that turns an uploaded model into its compact viewer version (in millimetres, welded,
 * quantised, meshopt-encoded) and records the unit the model was found in: parsing and encoding run in a worker
 * thread.
 */
export class MeshPreparer {
  private worker?: Worker;
  private seq = 0;
  private readonly waiting = new Map<number, (r: Reply) => void>();

  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    // From the bundle the worker is dist/mesh-worker.js beside this chunk; from source (tests, dev)
    // the worker registers tsx first, then loads the TypeScript module.
    const fromSource = import.meta.url.endsWith('.ts');
    const worker = fromSource
      ? new Worker(
          `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./mesh-worker.ts', import.meta.url).href)}); })`,
          { eval: true },
        )
      : new Worker(new URL('./mesh-worker.js', import.meta.url));
    worker.on('message', (r: Reply) => {
      this.waiting.get(r.id)?.(r);
      this.waiting.delete(r.id);
    });
    worker.on('error', (err) => this.log.error({ err }, 'mesh worker failed'));
    worker.on('exit', () => {
      for (const done of this.waiting.values())
        done({ id: -1, ok: false, invalid: false, error: 'mesh worker exited' });
      this.waiting.clear();
      this.worker = undefined;
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private compact(bytes: Uint8Array, format: string): Promise<Reply> {
    const id = ++this.seq;
    const worker = this.ensureWorker();
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ id, bytes, format }, [bytes.buffer as ArrayBuffer]);
    });
  }

  /**
   * A model's viewer version is ready (or could not be made): the case's open pages, the clinic's and those of the
   * laboratories its orders went to, show it without asking again.
   */
  private async viewerSet(...args: Parameters<typeof filesRepository.setViewer>) {
    const status = args[2];
    for (const f of await filesRepository.setViewer(...args)) {
      await EventsService.record(
        this.db,
        [Number(f.organization_id), ...(f.lab_ids ?? []).map(Number)].map((organizationId) => ({
          organizationId,
          permission: organizationId === Number(f.organization_id) ? 'case:view' : 'order:view',
          kind: 'file.prepared',
          subject: f.case_code,
          data: { fileCode: f.code, viewerStatus: status },
        })),
      );
    }
  }

  async prepare(fileId: number) {
    const file = await filesRepository.forPreparation(this.db, fileId);
    if (!file) return;
    if (Number(file.size) > MAX_PREPARE_BYTES) {
      await this.viewerSet(this.db, fileId, 'failed');
      return;
    }
    const buffer = await readAll(await this.store.read(file.storage_key));
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).slice();
    const reply = await this.compact(bytes, file.format);
    if (!reply.ok) {
      // A model that cannot be parsed will not parse on a retry either.
      if (reply.invalid) {
        await this.viewerSet(this.db, fileId, 'failed', { unit: reply.unit });
        return;
      }
      throw new Error(reply.error);
    }
    const key = `viewer/${file.code}.mesh`;
    const size = await this.store.write(
      key,
      Readable.from([Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength)]),
    );
    await this.viewerSet(this.db, fileId, 'ready', { viewerKey: key, viewerSize: size, unit: reply.unit });
  }

  async stop() {
    await this.worker?.terminate();
  }
}
