import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tar from 'tar-stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { buildApp } from '../src/app.js';
import { migrateAll, migrateOnly, migrationNames } from '../src/migrations.js';
import {
  backupKey,
  BackupRefused,
  HEADER_ENTRY,
  MANIFEST_ENTRY,
  readEntries,
  sign,
  SIGNATURE_ENTRY,
  type BackupHeader,
  type Manifest,
} from '../src/platform/backup/archive.js';
import { backupSite } from '../src/platform/backup/site-backup.js';
import { restoreSite, type RestoreOptions } from '../src/platform/backup/site-restore.js';
import { LocalStore, readAll } from '../src/platform/storage.js';
import { newCase, partner, sendToLab, side, type Side } from './fixtures.js';
import { createHarness, freshDb, PASSWORD, type Harness } from './harness.js';
import { callChild, childDatabase, killChildServers, startChildServer } from './child-server.js';
import { binaryStl, tusUpload } from './uploads.js';

/**
 * Backup and restore of a whole site (docs/operations.md, "Backup and restore"): a signed archive of the database
 * and the file store, restored into an empty site that then shows the same cases, files and orders; archives that
 * are cut short, changed, of another region, of a newer schema or with entries outside a backup's folders are
 * refused before anything is written.
 */
let h: Harness;
let clinic: Side;
let lab: Side;
let caseCode: string;
let orderCode: string;
const stl = binaryStl(400, 7);
const work = mkdtempSync(join(tmpdir(), 'portal-backup-'));
const archive = join(work, 'site.tar');

/** An empty site to restore into: its own database and store, this site's secret and region unless told. */
async function emptySite(opts: { secret?: string; region?: string } = {}) {
  const db = await freshDb({ empty: true });
  const root = mkdtempSync(join(work, 'store-'));
  const store = new LocalStore(root);
  const restore = (from: string, extra: Partial<RestoreOptions> = {}) =>
    restoreSite({
      db,
      store,
      region: opts.region ?? h.config.region,
      siteSecret: opts.secret ?? h.config.jwtSecret,
      from,
      knownMigrations: migrationNames(),
      migrate: async (only) => void (await (only ? migrateOnly(db, only) : migrateAll(db))),
      ...extra,
    });
  const isEmpty = async () => {
    const [t] = await db.query<{ found: string | null }>(`SELECT to_regclass('public.organizations')::text AS found`);
    const rows = t?.found ? await db.query('SELECT 1 FROM organizations') : [];
    const files = [];
    for await (const f of store.listAll()) files.push(f.key);
    return rows.length === 0 && files.length === 0;
  };
  return { db, store, root, restore, isEmpty };
}

/** Rewrites an archive entry by entry; `change` answers the new name and body (or null to leave it out). */
async function rewrite(
  from: string,
  to: string,
  change: (name: string, body: Buffer) => { name: string; body: Buffer } | null,
  extra: { name: string; body: Buffer }[] = [],
) {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: unknown) => chunks.push(c as Buffer));
  const finished = new Promise<void>((done) => pack.on('end', () => done()));
  const put = (name: string, body: Buffer) =>
    new Promise<void>((done, fail) => pack.entry({ name, size: body.length }, body, (e) => (e ? fail(e) : done())));
  for await (const entry of readEntries(from)) {
    const body = await readAll(entry.body);
    if (entry.name === MANIFEST_ENTRY) for (const x of extra) await put(x.name, x.body);
    const next = change(entry.name, body);
    if (next) await put(next.name, next.body);
  }
  pack.finalize();
  await finished;
  writeFileSync(to, Buffer.concat(chunks));
}

/** Rewrites an archive and signs its manifest again, as a holder of the site's secret could: for the header checks. */
async function resigned(to: string, changeHeader: (header: BackupHeader) => void) {
  let manifest: Manifest | undefined;
  const key = backupKey(h.config.jwtSecret);
  let headerEntry: { size: number; sha256: string } | undefined;
  await rewrite(archive, to, (name, body) => {
    if (name === HEADER_ENTRY) {
      const header = JSON.parse(body.toString()) as BackupHeader;
      changeHeader(header);
      const next = Buffer.from(JSON.stringify(header));
      headerEntry = { size: next.length, sha256: createHash('sha256').update(next).digest('hex') };
      return { name, body: next };
    }
    if (name === MANIFEST_ENTRY) {
      manifest = JSON.parse(body.toString()) as Manifest;
      manifest.entries[0] = { name: HEADER_ENTRY, ...headerEntry! };
      return { name, body: Buffer.from(JSON.stringify(manifest)) };
    }
    if (name === SIGNATURE_ENTRY) return { name, body: Buffer.from(sign(key, Buffer.from(JSON.stringify(manifest)))) };
    return { name, body };
  });
}

async function download(app: Harness['app'], token: string, fileCode: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v2/file/downloadGrant',
    headers: {
      'content-type': 'application/json',
      info: JSON.stringify({ accessToken: token, appCode: 'test', endPointClass: 'web' }),
    },
    payload: JSON.stringify({ fileCode }),
  });
  const url = new URL(res.json().data.url as string);
  return (await app.inject({ url: url.pathname + url.search })).rawPayload;
}

beforeAll(async () => {
  h = await createHarness();
  const base = await h.listen();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
  const partnerCode = await partner(h, clinic, lab);
  caseCode = await newCase(h, clinic, 'Bridge 14–16', 'Ilse Brandt');
  await tusUpload(base, clinic.token, stl, { caseCode, filename: 'upper.stl', jaw: 'upper' });
  await h.app.platform.jobs.drain();
  [orderCode] = (await sendToLab(h, clinic, partnerCode, [caseCode])) as [string];
  await backupSite({
    db: h.db,
    store: h.app.platform.store,
    region: h.config.region,
    siteSecret: h.config.jwtSecret,
    out: archive,
  });
}, 120_000);
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('restores into an empty site, which shows the same cases, files and orders and signs its members in', async () => {
    const site = await emptySite();
    const summary = await site.restore(archive);
    expect(summary.files).toBeGreaterThanOrEqual(2); // the upload and its viewer version
    // The indexes the restore built after loading are the site's.
    const indexes = async (db: typeof h.db) =>
      (
        await db.query<{ indexdef: string }>(
          `SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexdef`,
        )
      ).map((r) => r.indexdef);
    expect(await indexes(site.db)).toEqual(await indexes(h.db));
    const restored = await buildApp({
      config: { ...h.config, storage: { kind: 'local', root: site.root } },
      db: site.db,
    });
    await restored.ready();
    try {
      const ask = async (path: string, token: string, body: Record<string, unknown>) =>
        (
          await restored.inject({
            method: 'POST',
            url: `/api/v2/${path}`,
            headers: {
              'content-type': 'application/json',
              info: JSON.stringify({ accessToken: token, appCode: 'test', endPointClass: 'web' }),
            },
            payload: JSON.stringify(body),
          })
        ).json();
      // The same answers as the site that was backed up, on the session it had.
      for (const [path, token, body] of [
        ['case/list', clinic.token, { pageNum: 1, pageSize: 20 }],
        ['case/detail', clinic.token, { caseCode }],
        ['order/list', lab.token, { pageNum: 1, pageSize: 20 }],
        ['order/detail', lab.token, { orderCode }],
      ] as const) {
        const before = await h.call(path, { token, body });
        const after = await ask(path, token, body);
        expect(after.code, path).toBe(200);
        expect(after.data, path).toEqual(before.data);
      }
      const detail = await ask('case/detail', clinic.token, { caseCode });
      const fileCode = detail.data.files[0].fileCode as string;
      expect(Buffer.compare(await download(restored, clinic.token, fileCode), stl)).toBe(0);
      // Its members sign in with their passwords; new rows get new ids.
      const signIn = await restored.inject({
        method: 'POST',
        url: '/api/v2/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ account: clinic.account, password: PASSWORD }),
      });
      expect(signIn.json().code).toBe(200);
      const made = await ask('case/create', clinic.token, { name: 'After the restore', patientName: 'Ilse Brandt' });
      expect(made.code).toBe(200);
    } finally {
      await restored.close();
      await site.db.close();
    }
  }, 120_000);

  it('refuses an archive cut short, changed, or signed by another site, and writes nothing', async () => {
    const cut = join(work, 'cut.tar');
    writeFileSync(cut, readFileSync(archive));
    truncateSync(cut, Math.floor(statSync(archive).size / 2));
    const changed = join(work, 'changed.tar');
    await rewrite(archive, changed, (name, body) => {
      if (!name.startsWith('files/uploads/')) return { name, body };
      const flipped = Buffer.from(body);
      flipped[100] = flipped[100]! ^ 0xff;
      return { name, body: flipped };
    });
    const unsigned = join(work, 'unsigned.tar');
    await rewrite(archive, unsigned, (name, body) => (name === SIGNATURE_ENTRY ? null : { name, body }));

    const site = await emptySite();
    try {
      const refusal = (from: string) =>
        site.restore(from).then(
          () => null,
          (err: Error) => err,
        );
      const cases: Array<[string, RegExp]> = [
        [cut, /incomplete \(cut short/],
        [changed, /changed after the backup: files\/uploads\//],
        [unsigned, /incomplete/],
      ];
      for (const [from, message] of cases) {
        const err = await refusal(from);
        expect(err).toBeInstanceOf(BackupRefused);
        expect(err!.message).toMatch(message);
        expect(await site.isEmpty()).toBe(true);
      }
      // Another site's secret: the signature does not match.
      const other = await emptySite({ secret: randomBytes(32).toString('hex') });
      const err = await other.restore(archive).then(
        () => null,
        (e: Error) => e,
      );
      expect(err!.message).toMatch(/signature does not match/);
      expect(await other.isEmpty()).toBe(true);
      await other.db.close();
    } finally {
      await site.db.close();
    }
  }, 120_000);

  it('refuses a backup of a newer schema, of another region, or with entries outside its folders', async () => {
    const newer = join(work, 'newer.tar');
    await resigned(newer, (header) => header.migrations.push('9999_from_a_later_version.sql'));
    const escaping = join(work, 'escaping.tar');
    await rewrite(archive, escaping, (name, body) => ({ name, body }), [
      { name: 'files/../../etc/cron.d/portal', body: Buffer.from('* * * * * root true\n') },
    ]);
    const site = await emptySite();
    try {
      const newerErr = await site.restore(newer).then(
        () => null,
        (e: Error) => e,
      );
      expect(newerErr!.message).toMatch(
        /schema is newer than this version of the portal \(its migration 9999_from_a_later_version\.sql/,
      );
      const escapingErr = await site.restore(escaping).then(
        () => null,
        (e: Error) => e,
      );
      expect(escapingErr!.message).toBe(
        "The archive holds an entry outside a backup's folders: files/../../etc/cron.d/portal",
      );
      expect(await site.isEmpty()).toBe(true);
      const elsewhere = await emptySite({ region: h.config.region === 'eu' ? 'us' : 'eu' });
      const regionErr = await elsewhere.restore(archive).then(
        () => null,
        (e: Error) => e,
      );
      expect(regionErr!.message).toMatch(new RegExp(`is of a site in region ${h.config.region}`));
      expect(await elsewhere.isEmpty()).toBe(true);
      await elsewhere.db.close();
    } finally {
      await site.db.close();
    }
  }, 120_000);

  it('refuses a site that is not empty', async () => {
    const site = await emptySite();
    try {
      await site.restore(archive);
      const again = await site.restore(archive).then(
        () => null,
        (e: Error) => e,
      );
      expect(again!.message).toMatch(/already holds a site/);
    } finally {
      await site.db.close();
    }
  }, 120_000);
});

describe('restoring the database alone onto a store that was kept', () => {
  it("applies the store's erasure ledger again: a patient erased after the backup does not come back", async () => {
    // After the backup, the clinic erases the patient (its administrator, the password confirmed).
    expect((await h.call('user/checkIdentity', { token: clinic.token, body: { password: PASSWORD } })).code).toBe(200);
    const erased = await h.call('case/erase', {
      token: clinic.token,
      body: { caseCodes: [caseCode], reason: 'Request of 2026-11-20, ref. DPO-7' },
    });
    expect(erased.code).toBe(200);
    // The database is lost; the store (with its ledger) survived: the backup's database is restored onto it.
    const site = await emptySite();
    const kept = h.app.platform.store;
    const summary = await restoreSite({
      db: site.db,
      store: kept,
      region: h.config.region,
      siteSecret: h.config.jwtSecret,
      from: archive,
      knownMigrations: migrationNames(),
      migrate: async (only) => void (await (only ? migrateOnly(site.db, only) : migrateAll(site.db))),
      databaseOnly: true,
    });
    expect(summary.files).toBe(0);
    const [before] = await site.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM cases WHERE code = $1 AND erased_at IS NULL',
      [caseCode],
    );
    expect(before!.n).toBe(1);
    const restored = await buildApp({ config: h.config, db: site.db });
    await restored.ready();
    try {
      // What the server does at start, before it answers.
      expect(await restored.housekeeping.run('erasureReplay')).toMatchObject({ replayed: 1, skipped: 0 });
      const detail = await restored.inject({
        method: 'POST',
        url: '/api/v2/case/detail',
        headers: {
          'content-type': 'application/json',
          info: JSON.stringify({ accessToken: clinic.token, appCode: 'test', endPointClass: 'web' }),
        },
        payload: JSON.stringify({ caseCode }),
      });
      expect(detail.json().code).toBe(404);
      const [patient] = await site.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM cases WHERE patient_name = 'Ilse Brandt'`,
      );
      expect(patient!.n).toBe(0);
    } finally {
      await restored.close();
      await site.db.close();
    }
  }, 120_000);
});

describe('the backup and restore commands', () => {
  // A failed expectation leaves no server running.
  afterEach(() => killChildServers());
  const CLI = join(import.meta.dirname, '../dist/backup.js');
  const SECRET = 'child-server-secret-that-is-long-enough-to-sign';
  const command = (args: string[], site: { dataDir: string; databaseUrl?: string }) =>
    spawnSync(process.execPath, [CLI, ...args], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: site.dataDir,
        JWT_SECRET: SECRET,
        ...(site.databaseUrl ? { DATABASE_URL: site.databaseUrl } : {}),
      },
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('back up a stopped site and restore it into an empty one that starts with the same data', async () => {
    const source = await childDatabase();
    const target = await childDatabase({ fresh: true });
    try {
      await backUpAndRestore(source, target);
    } finally {
      await source.drop();
      await target.drop();
    }
  }, 300_000);

  async function backUpAndRestore(
    source: Awaited<ReturnType<typeof childDatabase>>,
    target: Awaited<ReturnType<typeof childDatabase>>,
  ) {
    const first = await startChildServer(source, { SEED_DEMO: 'true' });
    const signIn = async (base: string) =>
      (await callChild(base, 'login', { account: 'clinic', password: PASSWORD })).data.accessToken as string;
    const cases = async (base: string, token: string) =>
      (await callChild(base, 'case/list', { pageNum: 1, pageSize: 50 }, token)).data;
    const token = await signIn(first.baseUrl);
    for (const name of ['Aligners, stage 1', 'Night guard'])
      expect((await callChild(first.baseUrl, 'case/create', { name, patientName: 'Jonas Ek' }, token)).code).toBe(200);
    // The demo's scanner cases arrive in the background: the backup takes them as they are when it stops.
    await expect.poll(async () => (await cases(first.baseUrl, token)).total, { timeout: 60_000 }).toBe(4);
    const out = join(work, 'commands.tar');
    if (!source.databaseUrl) {
      // The embedded database is one process's at a time: a backup waits for the server to stop.
      const busy = command(['backup', '--out', out], source);
      expect(busy.status).toBe(1);
      expect(busy.stderr).toMatch(
        /^Another process \(pid \d+\) has the embedded database in .* open: stop it before backing it up\./,
      );
    }
    await first.stop();

    const made = command(['backup', '--out', out], source);
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(/^Backup written to .*commands\.tar: \d+ rows, \d+ files/);

    const restored = command(['restore', '--from', out], target);
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
    // Both sites side by side: the restored one answers as the one backed up.
    const [again1, second] = await Promise.all([startChildServer(source), startChildServer(target)]);
    try {
      const before = await cases(again1.baseUrl, await signIn(again1.baseUrl));
      expect(before.total).toBe(4);
      expect(await cases(second.baseUrl, await signIn(second.baseUrl))).toEqual(before);
    } finally {
      await Promise.all([again1.stop(), second.stop()]);
    }
    // Again into the same site: refused, with the reason, and an exit status that says so.
    const again = command(['restore', '--from', out], target);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already holds a site/);
    const usage = command(['restore'], target);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^usage: backup --out <file> \| restore --from <file>/);
  }
});
