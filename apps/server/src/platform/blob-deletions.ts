import type { Db, Queryable } from './db.js';
import type { BlobStore } from './storage.js';

const SWEEP_BATCH = 500;

/**
 * Blobs whose rows are gone. A store is not part of a transaction, so the transaction that removes the rows lists
 * their blobs; after the commit they are deleted from the store and unlisted, and the upkeep sweeps what a crash (or
 * a failing store) left listed. A crash therefore never leaves bytes that no row accounts for. A listed blob is
 * garbage from the moment its transaction commits, so sweeping it while its own process deletes it is harmless.
 */
export class BlobDeletions {
  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
  ) {}

  /** Where the store keeps an upload's bytes. */
  uploadKey(uploadId: string) {
    return this.store.uploadKey(uploadId);
  }

  /** Lists blobs for deletion, in the transaction that removes their rows. */
  async list(tx: Queryable, keys: string[]) {
    if (!keys.length) return;
    await tx.query(`INSERT INTO blob_deletions (key) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, [keys]);
  }

  /** Deletes listed blobs from the store, after the commit that listed them; those the store refused stay listed. */
  async delete(keys: string[]): Promise<number> {
    if (!keys.length) return 0;
    const outcomes = await Promise.allSettled(keys.map((k) => this.store.delete(k)));
    const deleted = keys.filter((_, i) => outcomes[i]!.status === 'fulfilled');
    if (deleted.length) await this.db.query('DELETE FROM blob_deletions WHERE key = ANY ($1::text[])', [deleted]);
    return deleted.length;
  }

  /** Deletes every listed blob; answers how many went. */
  async sweep(): Promise<number> {
    let swept = 0;
    for (;;) {
      const rows = await this.db.query<{ key: string }>(
        `SELECT key FROM blob_deletions ORDER BY created_at LIMIT ${SWEEP_BATCH}`,
      );
      const deleted = await this.delete(rows.map((r) => r.key));
      swept += deleted;
      // A short batch was the last one; a refusal waits for the next run.
      if (rows.length < SWEEP_BATCH || deleted < rows.length) return swept;
    }
  }
}
