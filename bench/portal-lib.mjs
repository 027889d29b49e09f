// Helpers shared by the viewer, upload and export benchmarks: the portal's API as the clinic,
// tus uploads through tus-js-client's Node build, synthetic scans, and RSS sampling from /proc.
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { Upload } from 'tus-js-client';

export const ROOT = resolve(import.meta.dirname, '..');
export const MB = 1024 * 1024;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts the built server on a fresh data folder (seeded with the demo accounts) and waits for its first 200. */
export async function startPortal({ start, waitFor, freePort }, extraEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // PUBLIC_URL: signed file links point at 127.0.0.1 (the default names localhost, another origin for the browser).
  const child = start(['apps/server/dist/main.js'], { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, LOG_LEVEL: 'warn', SEED_DEMO: 'true', ...extraEnv });
  try {
    await waitFor(`${origin}/api/v2/common/monitor`, child);
  } catch (err) {
    child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  return { child, port, origin, base: `${origin}/api/v2`, dataDir };
}

/** A tiny client for the JSON API; throws on anything but code 200. */
export function apiClient(base, token) {
  return async (path, body = {}) => {
    const res = await fetch(`${base}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (json.code !== 200) throw new Error(`${path}: ${json.msg} (${json.code})`);
    return json.data;
  };
}

export async function login(base, account = 'clinic', password = 'Dental#2026') {
  // Right after the first 200 the seed may still be running: retry for a while.
  for (let i = 0; ; i++) {
    try {
      const data = await apiClient(base)('login', { account, password });
      return data.accessToken;
    } catch (err) {
      if (i >= 100) throw err;
      await sleep(200);
    }
  }
}

/** The demo uploads two cases in the background after start: wait until they exist and their viewer files are prepared. */
export async function waitDemoQuiet(api, timeoutMs = 90_000) {
  const t0 = performance.now();
  for (;;) {
    const list = await api('case/list', { pageNum: 1, pageSize: 20 });
    if (list.total >= 2) {
      const details = await Promise.all(list.list.map((c) => api('case/detail', { caseCode: c.caseCode })));
      const files = details.flatMap((d) => d.files);
      if (files.length >= 6 && files.every((f) => f.viewerStatus !== 'pending' && f.uploadTag === 'finished')) return;
    }
    if (performance.now() - t0 > timeoutMs) throw new Error('demo cases did not settle in time');
    await sleep(500);
  }
}

/** Uploads one file into a case through tus (the scanner client's way); resolves with its size and upload id once the server has finished it. */
export function tusUpload(base, token, path, meta, { chunkSize = 8 * MB, filename = basename(path) } = {}) {
  const size = statSync(path).size;
  return new Promise((ok, fail) => {
    const upload = new Upload(createReadStream(path), {
      endpoint: `${base}/files/tus`,
      headers: { authorization: `Bearer ${token}` },
      metadata: { filename, ...meta },
      uploadSize: size,
      chunkSize,
      retryDelays: [],
      onError: fail,
      onSuccess: () => ok({ size, id: upload.url.split('/').pop() }),
    });
    upload.start();
  });
}

/** Writes upper/lower .stl/.ply and bite.stl with packages/mesh's CLI (TypeScript, through tsx). */
export function generateScans(outDir, triangles, seed = 1) {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/mesh/src/generate-cli.ts', '--out', outDir, '--triangles', String(triangles), '--seed', String(seed)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? ok(out) : fail(new Error(`generate-cli exited with ${code}`))));
  });
}

export function rssBytes(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Samples a process's resident memory every `everyMs`; stop() gives the samples' maximum. */
export function sampleRss(pid, everyMs = 200) {
  let max = 0;
  let count = 0;
  const take = () => {
    try {
      const v = rssBytes(pid);
      count += 1;
      if (v > max) max = v;
    } catch {}
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { max, count };
    },
  };
}

/** Average RSS over a quiet second: the "before" figure. */
export async function settledRss(pid) {
  let sum = 0;
  for (let i = 0; i < 5; i++) {
    sum += rssBytes(pid);
    await sleep(200);
  }
  return sum / 5;
}

export const fmtMB = (b) => `${(b / MB).toFixed(1)} MB`;
