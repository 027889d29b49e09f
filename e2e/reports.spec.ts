import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Browser } from 'playwright-core';
import { api, apiLogin, launch, newPage, signIn } from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const SUMMARY = '毎晩、寝る前にやさしく歯を磨き、フロスを使ってください。';

async function pdfText(bytes: Uint8Array) {
  const doc = await getDocument({ data: bytes, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  await doc.destroy();
  return pages.join('\n');
}

describe('oral health reports', () => {
  it('a clinic designs a report on a demo case with two findings and a 3D snapshot, previews it in Japanese, downloads its PDF and shares it with the patient', async () => {
    // A demo case whose scans the scanner has uploaded (the demo seed does it at start-up).
    const token = await apiLogin('clinic');
    let caseCode = '';
    await expect
      .poll(
        async () => {
          const list = await api('case/list', { pageSize: 100 }, token);
          const demo = (list.data.list as Array<{ caseCode: string; patientName: string }>).find(
            (c) => c.patientName === 'Emma Schmidt',
          );
          if (!demo) return 0;
          caseCode = demo.caseCode;
          const detail = await api('case/detail', { caseCode }, token);
          return (detail.data.files as Array<{ kind: string; viewerStatus: string }>).filter(
            (f) => f.kind === 'model' && f.viewerStatus === 'ready',
          ).length;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(2);

    const { page, context } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto(`/case-management/detail/${caseCode}`);
    await page.getByTestId('case-reports').waitFor();
    await page.getByTestId('report-create').click();
    await page.waitForURL(/\/report-design\?report=/);
    const reportCode = new URL(page.url()).searchParams.get('report')!;
    // The designer sits under the portal's header: language and theme switch there too.
    await page.getByTestId('layout-header').getByTestId('lang-switch').waitFor();
    expect(await page.getByTestId('layout-header').getByTestId('theme-switch').count()).toBe(1);

    // The patient reads Japanese. The search ignores case and accents: "francais" finds "Français" alone.
    await page.getByTestId('report-language').click();
    await page.keyboard.type('FRANCAIS');
    const languageOptions = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await languageOptions.filter({ hasText: 'Français' }).waitFor();
    expect(await languageOptions.count()).toBe(1);
    for (let i = 0; i < 'FRANCAIS'.length; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('日本語');
    await page.keyboard.press('Enter');

    // A snapshot of the upper jaw from the 3D viewer.
    await page.locator('[data-testid^="report-scan-"]').first().check();
    await page.getByTestId('viewer-canvas').waitFor();
    await page.getByTestId('viewer-view').getByText('Upper jaw').click();
    const snapshot = page.getByTestId('viewer-snapshot');
    await expect.poll(() => snapshot.isEnabled(), { timeout: 60_000 }).toBe(true);
    await snapshot.click();
    await page.locator('[data-testid^="report-snapshot-"]').first().waitFor({ timeout: 30_000 });

    // Two findings: early caries on 16 with a note, aesthetics on 21.
    await page.getByTestId('report-tooth-16').click();
    await page.getByTestId('report-finding-note-16').fill('遠心面に初期う蝕');
    await page.getByTestId('report-new-category').click();
    await page.locator('.ant-select-item-option', { hasText: 'Aesthetics' }).click();
    await page.getByTestId('report-tooth-21').click();
    await page.getByTestId('report-finding-row-21').waitFor();
    await page.getByTestId('report-summary-input').fill(SUMMARY);
    await expect
      .poll(() => page.getByTestId('report-save-state').getAttribute('data-state'), { timeout: 15_000 })
      .toBe('saved');

    const saved = await api('report/detail', { reportCode }, token);
    expect(saved.data.content).toMatchObject({
      language: 'ja',
      summary: SUMMARY,
      findings: [
        { tooth: 16, category: 'early_caries', note: '遠心面に初期う蝕' },
        { tooth: 21, category: 'aethetics' },
      ],
    });
    expect(saved.data.content.images).toEqual([{ source: 'snapshot', code: saved.data.snapshots[0].code }]);

    // The preview: the patient's page in Japanese, in the light theme, with the snapshot.
    await page.getByTestId('report-preview').click();
    await page.waitForURL(/\/report-preview-main\?report=/);
    const shown = page.getByTestId('report-document');
    await shown.waitFor({ timeout: 40_000 });
    expect(await shown.getAttribute('lang')).toBe('ja');
    expect(await page.getByTestId('report-title').textContent()).toBe('口腔健康レポート');
    expect(await page.getByTestId('report-summary').textContent()).toBe(SUMMARY);
    expect(await page.locator('[data-testid^="report-finding-"]').count()).toBe(2);
    await page.getByTestId(`report-image-${saved.data.snapshots[0].code}`).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');

    // The PDF, as downloaded: its text holds the Japanese summary.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('report-preview-pdf').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await pdfText(new Uint8Array(bytes))).replace(/\s+/g, '');
    expect(text).toContain(SUMMARY);
    expect(text).toContain('口腔健康レポート');

    // Shared with the patient: possible once published; the link shows the report, its snapshot and its PDF.
    await page.goto(`/report-design?report=${reportCode}`);
    await page.getByTestId('share-not-shareable').waitFor();
    expect(await page.getByTestId('share-open-dialog').count()).toBe(0);
    await page.getByTestId('report-publish').click();
    await page.getByTestId('share-open-dialog').click();
    expect(await page.getByTestId('share-patient-name').isChecked()).toBe(true);
    await page.getByTestId('share-create').click();
    const link = await page.getByTestId('share-link').inputValue();
    expect(link).toMatch(/\/share\/report\?code=[A-Za-z0-9_-]{22}$/);

    const visitor = await newPage(browser);
    await visitor.page.goto(link);
    const sharedReport = visitor.page.getByTestId('report-document');
    await sharedReport.waitFor({ timeout: 40_000 });
    expect(await sharedReport.getAttribute('lang')).toBe('ja');
    expect(await visitor.page.getByTestId('report-summary').textContent()).toBe(SUMMARY);
    expect(await sharedReport.textContent()).toContain('Emma Schmidt');
    const picture = visitor.page.locator('[data-testid="report-document"] img').first();
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 20_000 })
      .toBeGreaterThan(0);
    const pdfLink = await visitor.page.getByTestId('share-report-pdf').getAttribute('href');
    const sharedPdf = await visitor.page.request.get(pdfLink!);
    expect((await sharedPdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // Revoked: the same page says the link has ended and who shared it.
    const shareCode = new URL(link).searchParams.get('code')!;
    await api('share/revoke', { shareCode }, token);
    await visitor.page.reload();
    await visitor.page.getByTestId('share-expired').waitFor();
    expect(await visitor.page.getByTestId('share-expired').textContent()).toContain(saved.data.organizationName);
    await visitor.context.close();
    await context.close();
  });
});
