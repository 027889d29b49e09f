import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { api, apiLogin, launch, newPage, signIn } from './support.js';

const WEB_DIST = join(import.meta.dirname, '../apps/web/dist');
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The text a QR code in a PNG holds. */
function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

describe('a share link of a case', () => {
  it('is made with a password and 7 days, opened from its QR code by a visitor, logged, and revoked', async () => {
    // A demo case with a model.
    const token = await apiLogin('clinic');
    const cases = await api('case/list', { pageSize: 50 }, token);
    const withFiles = (cases.data.list as Array<{ caseCode: string; fileCount: number }>).filter(
      (c) => c.fileCount > 0,
    );
    const details = await Promise.all(withFiles.map((c) => api('case/detail', { caseCode: c.caseCode }, token)));
    const demo = details
      .map((d) => d.data as { caseCode: string; name: string; patientName: string; files: Array<{ kind: string }> })
      .find((d) => d.files.some((f) => f.kind === 'model'))!;
    const password = 'Smile 2026';

    const clinic = await newPage(browser);
    await signIn(clinic.page, 'clinic');
    await clinic.page.getByTestId('layout-sidebar').waitFor();
    await clinic.page.goto(`/case-management/detail/${demo.caseCode}`);
    await clinic.page.getByTestId('shares-card').waitFor();
    await clinic.page.getByTestId('share-open-dialog').click();
    await clinic.page.getByTestId('share-password').fill(password);
    await clinic.page.getByTestId('share-expiry').getByText('7 days').click();
    await clinic.page.getByTestId('share-create').click();
    await clinic.page.getByTestId('share-result').waitFor();
    const link = await clinic.page.getByTestId('share-link').inputValue();
    expect(link).toMatch(/\/case-show\?code=[A-Za-z0-9_-]{22}$/);
    await expect.poll(() => clinic.page.getByTestId('share-remaining').textContent()).toContain('7');

    // The QR code's PNG, as downloaded, holds the link.
    await clinic.page.getByTestId('share-qr').waitFor();
    const [download] = await Promise.all([
      clinic.page.waitForEvent('download'),
      clinic.page.getByTestId('share-qr-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.png$/);
    const scanned = decodeQr(await readFile((await download.path())!));
    expect(scanned).toBe(link);

    // A visitor in a fresh browser: refused with a wrong password, let in with the right one.
    const visitor = await newPage(browser);
    const assets: string[] = [];
    visitor.page.on('response', (r) => {
      if (/\/assets\/.+\.(js|css)$/.test(new URL(r.url()).pathname)) assets.push(new URL(r.url()).pathname);
    });
    await visitor.page.goto(scanned!);
    await visitor.page.getByTestId('share-password-page').waitFor();
    // What the page needs before the 3D viewer, gzipped: the viewer's chunk comes only with models to show.
    const firstLoad = assets.filter((a) => !/ModelViewer|three/i.test(a));
    const gzipped = firstLoad.reduce((sum, a) => sum + gzipSync(readFileSync(join(WEB_DIST, a))).length, 0);
    console.info(`share page first load: ${firstLoad.length} files, ${(gzipped / 1024).toFixed(1)} KB gzip`);
    expect(assets.some((a) => /ModelViewer/.test(a))).toBe(false);
    await visitor.page.getByTestId('share-visit-password').fill('not it');
    await visitor.page.getByTestId('share-visit-unlock').click();
    await visitor.page.getByText('The password is not right').waitFor();
    await visitor.page.getByTestId('share-visit-password').fill(password);
    await visitor.page.getByTestId('share-visit-unlock').click();
    await visitor.page.getByTestId('share-content').waitFor();
    const summary = await visitor.page.getByTestId('share-summary').textContent();
    expect(summary).toContain(demo.name);
    expect(summary).not.toContain(demo.patientName);
    expect(await visitor.page.locator('[data-testid="share-files"] li').count()).toBe(demo.files.length);
    await visitor.page.getByTestId('viewer-canvas').waitFor();
    // The passed password is remembered in this browser.
    await visitor.page.reload();
    await visitor.page.getByTestId('share-content').waitFor();

    // The clinic sees both views in the access log, then revokes the link.
    await clinic.page.getByRole('button', { name: 'Done' }).click();
    await clinic.page.reload();
    const row = clinic.page.locator('[data-testid="shares-table"] tbody tr', { hasText: 'Password' }).first();
    await expect.poll(() => row.getByTestId('share-views').textContent()).toBe('2');
    await row.getByTestId('share-log').click();
    const log = clinic.page.getByTestId('share-access-log');
    await expect.poll(() => log.locator('tbody tr', { hasText: 'Page' }).count()).toBe(2);
    await clinic.page.keyboard.press('Escape');
    await row.getByTestId('share-revoke').click();
    await clinic.page.getByTestId('share-revoke-confirm').click();
    await expect.poll(() => row.getByTestId('share-status').textContent()).toBe('Revoked');

    // The visitor's reload shows the expired page, naming the clinic.
    const organization = (await api('user/info', {}, token)).data.organization.name as string;
    await visitor.page.reload();
    await visitor.page.getByTestId('share-expired').waitFor();
    expect(await visitor.page.getByTestId('share-expired').textContent()).toContain(organization);
    await visitor.context.close();
    await clinic.context.close();
  });
});
