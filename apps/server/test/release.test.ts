import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { COMPOSE_HAPROXY, haproxyConfig, haproxyInstalled } from '../../../scripts/cluster-lib.mjs';
import { release } from '../../../scripts/release.mjs';
import { ConfigError, loadConfig } from '../src/config.js';
import { postgresAdminUrl, testDbKind } from './db-url.js';
import { freePort } from './child-server.js';
import { PASSWORD } from './harness.js';

/**
 * What a person who runs the portal gets (docs/operations.md, "Release archive, image and compose file"): the release
 * archive, which `npm run cluster` runs as a user without rights; the image definition that only unpacks it; the
 * compose file. No container engine runs here: the compose file and the image definition are parsed and checked
 * against what they name, and the balancer's configuration against HAProxy itself.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const OPS = join(ROOT, 'ops');
const work = mkdtempSync(join(tmpdir(), 'portal-release-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Service = {
  build?: { context: string; dockerfile: string };
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  ports?: string[];
};

function compose() {
  const doc = parseDocument(readFileSync(join(OPS, 'compose.yaml'), 'utf8'), { merge: true });
  expect(doc.errors).toEqual([]);
  return doc.toJS({ maxAliasCount: 100 }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
}

/** The Containerfile's instructions, continuation lines joined. */
function containerfile() {
  const text = readFileSync(join(OPS, 'container/Containerfile'), 'utf8').replace(/\\\n/g, ' ');
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [instruction, ...rest] = l.split(/\s+/);
      return { instruction: instruction!, args: rest.join(' ') };
    });
}

describe('the compose file and the image definition', () => {
  it('runs PostgreSQL, an S3 store, two portal processes from the image and the balancer, wired to each other', () => {
    const { services, volumes } = compose();
    expect(Object.keys(services).sort()).toEqual(['balancer', 'portal1', 'portal2', 'postgres', 's3', 's3-bucket']);
    for (const name of ['portal1', 'portal2']) {
      const portal = services[name]!;
      expect(portal.build).toEqual({ context: './container', dockerfile: 'Containerfile' });
      expect(existsSync(join(OPS, portal.build!.context, portal.build!.dockerfile))).toBe(true);
      // Each variable is one the server reads, and together they make a valid configuration (secrets filled in).
      const env = Object.fromEntries(
        Object.entries(portal.environment!).map(([k, v]) => [
          k,
          String(v).replace(/\$\{(\w+)(?::[?-][^}]*)?\}/g, (_, name: string) =>
            name === 'PUBLIC_URL' ? 'https://portal.example' : name === 'REGION' ? 'eu' : 'x'.repeat(48),
          ),
        ]),
      );
      let config;
      try {
        config = loadConfig({ ...env, DATA_DIR: work }, { persistSecret: false });
      } catch (err) {
        throw new Error(`compose ${name}: ${(err as ConfigError).message}`);
      }
      expect(config.storage.kind).toBe('s3');
      expect(config.trustProxy).toBe(true);
      expect(new URL(config.databaseUrl!).host).toBe('postgres:5432');
      expect(env.S3_ENDPOINT).toBe('http://s3:9000');
    }
    // The first process migrates alone; the second waits for it to be ready.
    expect(services.portal1!.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
    expect(services.portal2!.depends_on).toEqual({ portal1: { condition: 'service_healthy' } });
    // The balancer's files exist where the compose file mounts them from.
    const mounts = services.balancer!.volumes!.map((v) => v.split(':'));
    for (const [from] of mounts) expect(existsSync(resolve(OPS, from!)), from).toBe(true);
    expect(mounts.map(([, to]) => to)).toEqual(['/usr/local/etc/haproxy/haproxy.cfg', COMPOSE_HAPROXY.luaPath]);
    expect(services.balancer!.ports).toEqual([`${COMPOSE_HAPROXY.port}:${COMPOSE_HAPROXY.port}`]);
    expect(Object.keys(volumes).sort()).toEqual(['postgres-data', 's3-data']);
  });

  it("balances with the same configuration as npm run cluster, naming the compose file's services, which HAProxy accepts", () => {
    const committed = readFileSync(join(OPS, 'haproxy/haproxy.cfg'), 'utf8');
    expect(committed.replace(/^#.*\n/, '')).toBe(haproxyConfig(COMPOSE_HAPROXY));
    const { services } = compose();
    for (const s of COMPOSE_HAPROXY.servers) {
      expect(services[s.host!], s.host).toBeDefined();
      expect(s.port).toBe(3000);
    }
    if (!haproxyInstalled()) return;
    // Checked as HAProxy would read it in its container, the wait script at its path there.
    const local = join(work, 'haproxy.cfg');
    writeFileSync(local, committed.replace(COMPOSE_HAPROXY.luaPath!, join(ROOT, 'scripts/haproxy-wait.lua')));
    const check = spawnSync('haproxy', ['-c', '-f', local], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
  });

  it('makes the image from the release archive alone, run as a user without rights, on the port the balancer uses', () => {
    const steps = containerfile();
    expect(steps.map((s) => s.instruction)).toEqual([
      'FROM',
      'ADD',
      'RUN',
      'USER',
      'WORKDIR',
      'ENV',
      'EXPOSE',
      'HEALTHCHECK',
      'CMD',
    ]);
    const step = (name: string) => steps.find((s) => s.instruction === name)!.args;
    expect(step('FROM')).toMatch(/^node:20-/);
    expect(step('ADD')).toBe('dental-portal.tar.gz /opt/');
    // Nothing is built or installed in the image: the archive holds its dependencies.
    expect(step('RUN')).not.toMatch(/npm|yarn|apt-get/);
    expect(step('USER')).toBe('portal');
    expect(step('ENV')).toContain('PORT=3000');
    expect(step('EXPOSE')).toBe('3000');
    expect(step('HEALTHCHECK')).toContain('/api/v2/common/ready');
    expect(JSON.parse(step('CMD'))).toEqual(['node', 'apps/server/dist/main.js']);
  });
});

describe.runIf(testDbKind() === 'postgres' && haproxyInstalled())('the release archive', () => {
  it('holds the built portal and its dependencies; npm run cluster runs from it as a user without rights', async () => {
    const archive = release();
    const unpacked = join(work, 'unpacked');
    spawnSync('mkdir', ['-p', unpacked]);
    const untar = spawnSync('tar', ['-xzf', archive, '-C', unpacked], { encoding: 'utf8' });
    expect(untar.status, untar.stderr).toBe(0);
    const top = join(unpacked, `dental-portal-${releaseVersion()}`);
    // No sources, no build tools, no test tools.
    for (const absent of [
      'apps/server/src',
      'apps/web/src',
      'node_modules/vitest',
      'node_modules/esbuild',
      'node_modules/typescript',
    ])
      expect(existsSync(join(top, absent)), absent).toBe(false);
    for (const present of [
      'apps/server/dist/main.js',
      'apps/web/dist/index.html',
      'apps/server/migrations',
      'node_modules/fastify',
      'ops/compose.yaml',
    ])
      expect(existsSync(join(top, present)), present).toBe(true);

    // Owned by and run as `nobody`, with a home of its own for npm.
    const home = join(work, 'home');
    spawnSync('mkdir', ['-p', home]);
    spawnSync('chown', ['-R', 'nobody', top, home]);
    // The folders above it are this test's (made private): nobody may pass through them.
    spawnSync('chmod', ['755', work, unpacked]);
    const port = await freePort();
    const database = `portal_release_${randomBytes(5).toString('hex')}`;
    const child = spawn('runuser', ['-u', 'nobody', '--', 'npm', 'run', 'cluster'], {
      cwd: top,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        npm_config_cache: join(home, '.npm'),
        CLUSTER_PORT: String(port),
        CLUSTER_DATABASE: database,
        DATABASE_URL: postgresAdminUrl(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    try {
      const deadline = Date.now() + 120_000;
      while (!output.includes('The site is running at')) {
        if (child.exitCode !== null) throw new Error(`npm run cluster exited:\n${output}`);
        if (Date.now() > deadline) throw new Error(`npm run cluster did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const base = `http://127.0.0.1:${port}/api/v2`;
      expect((await fetch(`${base}/common/ready`)).status).toBe(200);
      // The demo site answers through the balancer, the web app too.
      const signIn = await fetch(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'clinic', password: PASSWORD }),
      });
      expect(((await signIn.json()) as { code: number }).code).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
      // Its processes run as nobody.
      const ours = spawnSync('ps', ['-eo', 'user=,args='], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((l) => l.includes(join(top, 'apps/server/dist/main.js')));
      expect(ours).toHaveLength(2);
      for (const line of ours) expect(line.split(/\s+/)[0]).toBe('nobody');
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* gone */
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
      spawnSync('psql', [postgresAdminUrl(), '-qc', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`]);
    }
  }, 600_000);
});

function releaseVersion() {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}
