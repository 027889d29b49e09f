import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { E2E_JWT_SECRET, freePort } from './global-setup.js';
import { launch, newPage, PASSWORD, signIn } from './support.js';

/**
 * A portal of its own, stopped and started again on the same database while a clinic has its chat open: the tab
 * reconnects by itself and shows every message sent around the restart once (docs/architecture.md, "Events and live
 * updates": the socket resumes from the last event id it saw).
 */
const ROOT = resolve(import.meta.dirname, '..');

let browser: Browser;
let child: ChildProcess | undefined;
let output = '';
const dataDir = mkdtempSync(join(tmpdir(), 'portal-restart-'));
let base = '';

/** Starts the built server on `base`'s port with the test's data directory, and waits until it answers. */
async function startServer() {
  const port = new URL(base).port;
  child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'development',
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      JWT_SECRET: E2E_JWT_SECRET,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    const res = await fetch(`${base}/api/v2/common/ready`).catch(() => undefined);
    if (res?.ok) return;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stopServer() {
  const running = child;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((r) => running.once('exit', r));
  running.kill('SIGTERM');
  await exited;
}

async function call(path: string, body: Record<string, unknown>, token?: string) {
  const res = await fetch(`${base}/api/v2/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: any };
}

async function login(account: string) {
  const res = await call('login', { account, password: PASSWORD, saveLogin: true });
  expect(res.code).toBe(200);
  return res.data.accessToken as string;
}

const liveState = (page: Page) => page.getByTestId('layout-header').getAttribute('data-live');

beforeAll(async () => {
  base = `http://127.0.0.1:${await freePort()}`;
  browser = await launch();
  await startServer();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stopServer();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('live updates across a server restart', () => {
  it('the clinic’s open chat reconnects by itself and shows each message sent around the restart once', async () => {
    const clinicToken = await login('clinic');
    const labToken = await login('lab');
    const labName = (await call('user/info', {}, labToken)).data.organization.name as string;
    const conversations = (await call('chat/conversations', {}, clinicToken)).data.list as Array<{
      code: string;
      kind: string;
      title: string;
    }>;
    const code = conversations.find((c) => c.kind === 'partner' && c.title === labName)!.code;
    await call('chat/conversations', {}, labToken);
    const labSays = async (body: string) => {
      const sent = await call(
        'chat/send',
        { conversationCode: code, clientId: crypto.randomUUID(), body, refs: [], attachmentCodes: [] },
        labToken,
      );
      expect(sent.code).toBe(200);
    };

    const { page } = await newPage(browser, base);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/chat');
    await expect.poll(() => liveState(page), { timeout: 30_000 }).toBe('up');
    await page.getByTestId(`chat-conversation-${code}`).click();
    await page.getByTestId('chat-input').waitFor();
    const shown = (text: string) => page.getByTestId('chat-message').filter({ hasText: text });

    const stamp = Date.now().toString(36);
    await labSays(`before the restart ${stamp}`);
    await shown(`before the restart ${stamp}`).waitFor();

    // The server goes away: the tab notices, and a message the clinic sends now is refused, its text kept.
    await stopServer();
    await expect.poll(() => liveState(page), { timeout: 30_000 }).toBe('down');
    const mine = `sent while the server was away ${stamp}`;
    await page.getByTestId('chat-input').fill(mine);
    await page.getByTestId('chat-send').click();
    // A write is sent again twice after a lost answer (0.5 s, then 2 s): the refusal comes once those fail too.
    const sendClass = () => page.getByTestId('chat-send').getAttribute('class');
    await expect.poll(sendClass).toContain('ant-btn-loading');
    await expect.poll(sendClass, { timeout: 15_000 }).not.toContain('ant-btn-loading');
    expect(await page.getByTestId('chat-input').inputValue()).toBe(mine);

    // Back on the same database: the laboratory writes before the tab has found the server again.
    await startServer();
    const during = [1, 2, 3].map((n) => `after the restart ${n} ${stamp}`);
    for (const text of during) await labSays(text);
    await expect.poll(() => liveState(page), { timeout: 60_000 }).toBe('up');
    for (const text of during) await shown(text).waitFor({ timeout: 30_000 });

    // The clinic sends its message again (the same client id): stored once.
    await page.getByTestId('chat-send').click();
    await shown(mine).waitFor();
    await expect.poll(() => page.getByTestId('chat-input').inputValue()).toBe('');

    // Live again, not polling: a message now arrives on the socket.
    await labSays(`once reconnected ${stamp}`);
    await shown(`once reconnected ${stamp}`).waitFor();

    // Each message once, on screen and in the conversation.
    for (const text of [`before the restart ${stamp}`, ...during, mine, `once reconnected ${stamp}`])
      expect(await shown(text).count(), text).toBe(1);
    const stored = (await call('chat/messages', { conversationCode: code, limit: 50 }, labToken)).data.list as Array<{
      body: string;
    }>;
    expect(stored.filter((m) => m.body === mine)).toHaveLength(1);
    expect(stored.filter((m) => m.body.endsWith(stamp))).toHaveLength(6);
  }, 240_000);
});
