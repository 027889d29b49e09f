import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

// The built web app as the production server serves it: one handler for pages and files.
let h: Harness;
let webDir: string;
beforeAll(async () => {
  webDir = mkdtempSync(join(tmpdir(), 'portal-web-'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>portal</title>');
  writeFileSync(join(webDir, 'share.html'), '<!doctype html><title>shared</title>');
  writeFileSync(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(join(webDir, 'assets'));
  writeFileSync(join(webDir, 'assets', 'index-AbC123.js'), 'console.log(1);');
  h = await createHarness({}, { webDir });
});
afterAll(async () => {
  await h.close();
  rmSync(webDir, { recursive: true, force: true });
});

describe('the built web app', () => {
  it('serves hashed assets as immutable and other files for an hour', async () => {
    const asset = await h.app.inject({ url: '/assets/index-AbC123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1);');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await h.app.inject({ url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    const head = await h.app.inject({ method: 'HEAD', url: '/assets/index-AbC123.js' });
    expect(head.statusCode).toBe(200);
  });

  it('answers pages with the app, never cached, and with a content security policy', async () => {
    for (const url of ['/', '/case-management', '/cases/abc?tab=files']) {
      const page = await h.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('<title>portal</title>');
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(page.headers['content-security-policy'], url).toContain("default-src 'self'");
    }
  });

  it('answers a missing file, or one outside the folder, with 404', async () => {
    for (const url of ['/assets/missing.js', '/nothing.png', '/assets/..%2f..%2fpackage.json', '/../package.json'])
      expect((await h.app.inject({ url })).statusCode, url).toBe(404);
  });
});
