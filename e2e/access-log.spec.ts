import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, apiLogin, launch, newPage, signIn } from './support.js';

/**
 * The patient-data access log (docs/product-decisions.md, "Patient-data access log"): a clinic administrator opens a
 * case, finds that reading in Own space → Access log by the case's code, and exports the filtered log as CSV.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('access log', () => {
  it('shows a case opening to the clinic administrator, filtered by case, and exports it', async () => {
    const token = await apiLogin('clinic');
    const made = await api('case/create', { name: 'Audit trail', patientName: 'Karin Solberg' }, token);
    expect(made.code, made.msg).toBe(200);
    const caseCode = made.data.caseCode as string;

    const { context, page } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    const opened = page.waitForResponse((r) => r.url().endsWith('/api/v2/case/detail') && r.status() === 200);
    await page.goto(`/case-management/detail/${caseCode}`);
    await opened;

    await page.goto('/own-space?tab=accessLog');
    const panel = page.getByTestId('access-log');
    await panel.waitFor();
    const search = page.getByTestId('access-log-case').locator('input');
    await search.fill(caseCode);
    const filtered = page.waitForResponse(
      (r) => r.url().endsWith('/api/v2/audit/accessLog') && (r.request().postData() ?? '').includes(caseCode),
    );
    await search.press('Enter');
    await filtered;
    const row = panel.getByTestId('access-case.view');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain(`Case ${caseCode}`);
    expect(await row.textContent()).toContain('Case opened');
    // No name of the patient anywhere in the log.
    expect(await panel.textContent()).not.toContain('Karin Solberg');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('access-log-export').click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Case opened');
    expect(lines[1]).toContain(caseCode);
    await context.close();
  });
});
