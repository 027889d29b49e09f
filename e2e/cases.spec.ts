import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import type { Browser, Page } from 'playwright-core';
import { generateArch, toBinaryStl, toPly } from '@portal/mesh';
import { runScanner } from '../apps/server/src/scanner/cli.js';
import { api, apiLogin, baseUrl, launch, newPage, paintedPixels, paintedSpots, signIn } from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const stamp = Date.now().toString(36);
const dir = mkdtempSync(join(tmpdir(), 'portal-e2e-scans-'));

function zipNames(buf: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

async function createCase(page: Page, name: string, patient: string) {
  // Through the sidebar, as a user gets there.
  await page.goto('/');
  await page.getByTestId('menu-cases').click();
  await page.getByTestId('case-new').click();
  await page.getByTestId('case-form-name').fill(name);
  await page.getByTestId('case-form-patientName').fill(patient);
  await page.getByTestId('case-form-submit').click();
  await page.getByTestId('case-detail').waitFor();
  return new URL(page.url()).pathname.split('/').pop()!;
}

describe('cases from scanner to screen', () => {
  it('a clinic uploads a scan in the portal with a progress bar, and the 3D model renders', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    const caseCode = await createCase(page, `Portal upload ${stamp}`, 'Nora Berg');
    const stl = Buffer.from(toBinaryStl(generateArch({ jaw: 'upper', triangles: 60_000, seed: 5 })));
    await page
      .getByTestId('case-upload-input')
      .setInputFiles({ name: 'upper.stl', mimeType: 'application/octet-stream', buffer: stl });
    await page.getByTestId('upload-progress-upper.stl').waitFor();
    const fileItem = page.locator('[data-testid^="file-item-"]').first();
    await fileItem.waitFor({ timeout: 60_000 });
    expect(caseCode).toMatch(/^c[0-9a-f]{8}$/);
    const fileCode = (await fileItem.getAttribute('data-testid'))!.replace('file-item-', '');
    await page.getByTestId(`file-open-${fileCode}`).click();
    await page.getByTestId('viewer-canvas').waitFor();
    await expect.poll(() => paintedPixels(page), { timeout: 60_000, interval: 500 }).toBeGreaterThan(500);
    await context.close();
  });

  it('the scanner command uploads another case that opens in the portal (another name of the server), measured, cut and screenshot into the case', async () => {
    // The server calls itself 127.0.0.1 (PUBLIC_URL); this browser knows it as localhost. Its signed file links
    // must still load.
    const { page, context } = await newPage(browser, baseUrl().replace('127.0.0.1', 'localhost'));
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/own-space?tab=scanners');
    await page.getByTestId('device-activate-serial').fill('SN-DEMO-0002');
    await page.getByTestId('device-activate-code').fill('demo-activation-0002');
    await page.getByTestId('device-activate-submit').click();
    await page.getByTestId('device-row-SN-DEMO-0002').waitFor();

    const upper = join(dir, 'upper.ply');
    const lower = join(dir, 'lower.stl');
    writeFileSync(upper, toPly(generateArch({ jaw: 'upper', triangles: 40_000, seed: 8 }), { binary: true }));
    writeFileSync(lower, toBinaryStl(generateArch({ jaw: 'lower', triangles: 40_000, seed: 9 })));
    const state = join(dir, 'scanner.json');
    const lines: string[] = [];
    await runScanner(
      ['activate', '--url', baseUrl(), '--state', state, '--serial', 'SN-DEMO-0002', '--code', 'demo-activation-0002'],
      (l) => lines.push(l),
    );
    const caseCode = (await runScanner(
      [
        'upload',
        '--state',
        state,
        '--patient',
        `Scanner Patient ${stamp}`,
        '--name',
        `Scanner case ${stamp}`,
        upper,
        lower,
      ],
      (l) => lines.push(l),
    )) as string;
    expect(lines.some((l) => l.includes('100%'))).toBe(true);
    // The viewer versions (in millimetres, which measuring needs) are made in the background: wait for them.
    const token = await apiLogin('clinic');
    await expect
      .poll(
        async () =>
          ((await api('case/detail', { caseCode }, token)).data.files as Array<{ viewerStatus: string }>).every(
            (f) => f.viewerStatus === 'ready',
          ),
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);

    await page.goto(`/case-management/detail/${caseCode}`);
    await page.getByTestId('case-detail').waitFor();
    expect(await page.locator('[data-testid^="file-item-"]').count()).toBe(2);
    await page.getByTestId('file-view-models').click();
    await page.getByTestId('viewer-canvas').waitFor();
    await expect.poll(() => paintedPixels(page), { timeout: 60_000, interval: 500 }).toBeGreaterThan(500);

    // Measuring across the arch: a click at each end of what is drawn marks a point; the distance shows in mm.
    await page.getByTestId('viewer-measure').click();
    await page.getByTestId('viewer-measurement').getByText('Click two points on a scan').waitFor();
    const [left, right] = await paintedSpots(page, [0.01, 0.99]);
    await page.mouse.click(left.x, left.y);
    await page.mouse.click(right.x, right.y);
    const measured = page.getByTestId('viewer-distance');
    await measured.waitFor({ timeout: 30_000 });
    expect(Number(await measured.getAttribute('data-mm'))).toBeGreaterThan(10);
    expect(await measured.innerText()).toMatch(/^Distance: \d+\.\d mm$/);
    // Leaving the tool clears the measurement.
    await page.getByTestId('viewer-measure').click();
    expect(await page.getByTestId('viewer-measurement').count()).toBe(0);

    // A cross-section: the plane faces the view through the middle of the scans; its profile is drawn and measured.
    await page.getByTestId('viewer-section-tool').click();
    const profile = page.getByTestId('viewer-section-profile');
    await expect
      .poll(async () => Number(await profile.getAttribute('data-segments')), { timeout: 30_000 })
      .toBeGreaterThan(10);
    expect(Number(await profile.getAttribute('data-mm'))).toBeGreaterThan(10);
    expect(await profile.innerText()).toMatch(/^Profile: \d+\.\d mm$/);
    // Moved to the far end, the plane crosses nothing; closing the tool makes the scans whole again.
    await page.getByTestId('viewer-section').getByRole('slider').focus();
    await page.keyboard.press('End');
    await expect.poll(async () => Number(await profile.getAttribute('data-segments'))).toBe(0);
    expect(await profile.innerText()).toBe('The plane crosses no scan here');
    await page.getByTestId('viewer-section-tool').click();
    expect(await page.getByTestId('viewer-section').count()).toBe(0);

    // A screenshot into the case: the frame becomes an image of the case, listed on its page once the viewer closes.
    await page.getByTestId('viewer-save-screenshot').click();
    await page.getByText(/^Screenshot saved to the case: scan-.+\.png$/).waitFor({ timeout: 30_000 });
    const files = (await api('case/detail', { caseCode }, token)).data.files as Array<{
      fileCode: string;
      name: string;
      kind: string;
      format: string;
      size: number;
    }>;
    const shot = files.find((f) => f.kind === 'image');
    expect(shot).toMatchObject({ format: 'png' });
    expect(shot!.name).toMatch(/^scan-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.png$/);
    expect(shot!.size).toBeGreaterThan(1000);
    await page.keyboard.press('Escape');
    await page.getByTestId(`file-item-${shot!.fileCode}`).waitFor();
    await context.close();
  });

  it('exports two cases into a zip whose entries match, keeps the filtered list in the address, deletes a case and restores it from the recycle bin', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    const a = await createCase(page, `Export A ${stamp}`, 'Otto Export');
    await page.getByTestId('case-upload-input').setInputFiles({
      name: 'a.stl',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(toBinaryStl(generateArch({ jaw: 'upper', triangles: 5000, seed: 1 }))),
    });
    await page.locator('[data-testid^="file-item-"]').first().waitFor({ timeout: 60_000 });
    const b = await createCase(page, `Export B ${stamp}`, 'Otto Export');
    await page.getByTestId('case-upload-input').setInputFiles({
      name: 'b.stl',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(toBinaryStl(generateArch({ jaw: 'lower', triangles: 5000, seed: 2 }))),
    });
    await page.locator('[data-testid^="file-item-"]').first().waitFor({ timeout: 60_000 });

    await page.goto('/case-management');
    await page.getByTestId('case-search').fill('Otto Export');
    await expect.poll(() => page.locator('[data-testid^="case-row-"]').count()).toBe(2);
    for (const code of [a, b]) await page.getByTestId(`case-row-${code}`).locator('input[type="checkbox"]').check();
    await page.getByTestId('case-batch-export').click();
    await page.getByTestId('export-dialog').waitFor();
    await page.getByTestId('export-start').click();
    const link = page.getByTestId('export-download');
    await link.waitFor({ timeout: 60_000 });
    const href = await link.getAttribute('href');
    const zip = Buffer.from(await (await fetch(new URL(href!, baseUrl()))).arrayBuffer());
    const names = await zipNames(zip);
    expect(names.filter((n) => n.endsWith('.stl')).sort()).toEqual([
      `Otto Export - Export A ${stamp}/a.stl`,
      `Otto Export - Export B ${stamp}/b.stl`,
    ]);
    expect(names.filter((n) => n.endsWith('case.txt'))).toHaveLength(2);
    await page.keyboard.press('Escape');

    // The filtered list lives in the address: back from a case returns to it, and its link opens it elsewhere.
    await expect.poll(() => new URL(page.url()).searchParams.get('keyword')).toBe('Otto Export');
    await page.getByTestId(`case-link-${b}`).click();
    await page.getByTestId('case-detail').waitFor();
    await page.goBack();
    await page.getByTestId(`case-row-${b}`).waitFor();
    expect(await page.getByTestId('case-search').inputValue()).toBe('Otto Export');
    expect(await page.locator('[data-testid^="case-row-"]').count()).toBe(2);
    const other = await newPage(browser);
    await signIn(other.page, 'clinic');
    await other.page.getByTestId('layout-sidebar').waitFor();
    await other.page.goto(new URL(page.url()).pathname + new URL(page.url()).search);
    await other.page.getByTestId(`case-row-${a}`).waitFor();
    expect(await other.page.locator('[data-testid^="case-row-"]').count()).toBe(2);
    await other.context.close();

    await page.goto('/case-management');
    await page.getByTestId('case-search').fill('Otto Export');
    // The row is picked on the searched list, not on the one the search is about to replace.
    await expect.poll(() => new URL(page.url()).searchParams.get('keyword')).toBe('Otto Export');
    await expect.poll(() => page.locator('[data-testid^="case-row-"]').count()).toBe(2);
    await page.getByTestId(`case-row-${a}`).locator('input[type="checkbox"]').check();
    await page.getByTestId('case-batch-delete').click();
    await page.getByTestId('case-delete-confirm').click();
    await page.getByTestId(`case-row-${a}`).waitFor({ state: 'detached' });
    await page.getByTestId('menu-recycleBin').click();
    const row = page.getByTestId(`recycle-row-${a}`);
    await row.waitFor();
    await row.getByTestId('recycle-restore').click();
    await row.waitFor({ state: 'detached' });
    await page.goto(`/case-management/detail/${a}`);
    await page.getByTestId('case-detail').waitFor();
    await context.close();
  });
});

describe('voice memos', () => {
  it('are recorded in the browser and kept with the case', async () => {
    const { page, context } = await newPage(browser);
    await context.grantPermissions(['microphone']);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await createCase(page, `Voice ${stamp}`, 'Paul Weber');
    await page.getByTestId('voice-record').click();
    await page.getByTestId('voice-stop').waitFor();
    await page.waitForTimeout(1500);
    await page.getByTestId('voice-stop').click();
    await page.locator('[data-testid^="upload-progress-voice-memo-"]').waitFor();
    await page.locator('[data-testid="file-group-audio"] [data-testid^="file-item-"]').waitFor({ timeout: 30_000 });
    await context.close();
  });
});

describe('the 3D viewer', () => {
  it('releases what it holds: opening and closing a case 20 times does not grow memory', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    const caseCode = await createCase(page, `Memory ${stamp}`, 'Mia Kern');
    await page.getByTestId('case-upload-input').setInputFiles([
      {
        name: 'upper.stl',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(toBinaryStl(generateArch({ jaw: 'upper', triangles: 30_000, seed: 4 }))),
      },
      {
        name: 'lower.ply',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(toPly(generateArch({ jaw: 'lower', triangles: 30_000, seed: 6 }), { binary: true })),
      },
    ]);
    await expect.poll(() => page.locator('[data-testid^="file-item-"]').count(), { timeout: 60_000 }).toBe(2);
    const cdp = await context.newCDPSession(page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    // Within one page: a reload would reset the heap and hide a leak.
    await page.goto(`/case-management/detail/${caseCode}`);
    const cycle = async () => {
      await page.getByTestId('file-view-models').click();
      await expect.poll(() => paintedPixels(page), { timeout: 60_000, interval: 200 }).toBeGreaterThan(500);
      await page.keyboard.press('Escape');
      await page.getByTestId('viewer-canvas').waitFor({ state: 'detached' });
    };
    await cycle();
    const before = await heap();
    for (let i = 0; i < 20; i++) await cycle();
    const after = await heap();
    expect(after - before).toBeLessThan(10 * 1024 * 1024);
    await context.close();
  });
});
