import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, apiLogin, launch, newPage, PASSWORD, signIn } from './support.js';

/**
 * Erasing a patient's data (docs/product-decisions.md, "Erasing a patient's data"): the clinic administrator sets and
 * releases a legal hold on a case, then erases the patient's two cases after confirming the name, reads the
 * certificate, downloads it, and is back on a list without them; a case in the recycle bin is erased from there.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('erasing a patient', () => {
  it('holds, releases, erases both cases of the patient and shows the certificate', async () => {
    const token = await apiLogin('clinic');
    const patient = { patientName: 'Sigrid Aune', patientId: `P-${Date.now().toString(36)}` };
    const codes: string[] = [];
    for (const name of ['Erasure first', 'Erasure second']) {
      const made = await api('case/create', { name, ...patient }, token);
      expect(made.code, made.msg).toBe(200);
      codes.push(made.data.caseCode as string);
    }

    const { context, page } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto(`/case-management/detail/${codes[0]}`);
    await page.getByTestId('case-detail').waitFor();

    // A legal hold: set with its reason, shown, and the erasure is not offered while it holds.
    await page.getByTestId('case-patient-data').click();
    await page.getByRole('menuitem', { name: 'Set a legal hold' }).click();
    await page.getByTestId('legal-hold-reason').fill('Claim 2026/14');
    await page.getByTestId('legal-hold-confirm').click();
    await page.getByTestId('case-legal-hold').waitFor();
    await page.getByTestId('case-patient-data').click();
    expect(await page.getByRole('menuitem', { name: "Erase the patient's data" }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Release the legal hold' }).click();
    await page.getByTestId('case-legal-hold').waitFor({ state: 'detached' });

    // The erasure: both cases of the patient are offered; the button waits for the reason and the typed name.
    await page.getByTestId('case-patient-data').click();
    await page.getByRole('menuitem', { name: "Erase the patient's data" }).click();
    const boxes = page.getByTestId('erase-cases').locator('input[type=checkbox]');
    await expect.poll(() => boxes.count()).toBe(2);
    // The case the page is on comes checked; the other is added.
    expect(await boxes.evaluateAll((all) => all.filter((b) => (b as HTMLInputElement).checked).length)).toBe(1);
    for (const i of [0, 1]) await boxes.nth(i).check();
    const confirm = page.getByTestId('erase-confirm');
    await page.getByTestId('erase-reason').fill('Request of 3 November, ref. 21');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByTestId('erase-typed').fill(patient.patientName);
    expect(await confirm.textContent()).toContain('Erase (2)');
    // A write goes with an idempotency key, the same for its sending again after the password prompt.
    const keys: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/v2/case/erase')) keys.push(r.headers()['idempotency-key'] ?? '');
    });
    await confirm.click();
    // A sensitive action: the password is asked for first.
    const password = page.getByTestId('password-prompt-input');
    await password.waitFor();
    await password.fill(PASSWORD);
    await page.getByTestId('password-prompt-ok').click();

    const certificate = page.getByTestId('erasure-certificate');
    await certificate.waitFor();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^web-[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(await certificate.textContent()).toContain('Cases erased2');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the certificate' }).click(),
    ]);
    const saved = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      erasureCode: string;
      cases: Array<{ caseCode: string }>;
    };
    expect(saved.cases.map((c) => c.caseCode).sort()).toEqual([...codes].sort());
    expect(JSON.stringify(saved)).not.toContain(patient.patientName);

    await page.getByTestId('erasure-done').click();
    await page.waitForURL((u) => u.pathname === '/case-management');
    // The certificate is listed beside the cases, newest first.
    await page.getByTestId('erasures-open').click();
    const row = page.getByTestId(`erasure-${saved.erasureCode}`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Request of 3 November, ref. 21');
    const left = await api('case/list', { keyword: patient.patientId, pageSize: 10 }, token);
    expect(left.data.total).toBe(0);
    await context.close();
  });

  it('erases a case from the recycle bin; a held one offers neither erasure nor deletion for good', async () => {
    const token = await apiLogin('clinic');
    const stamp = Date.now().toString(36);
    const made = async (name: string, patientName: string) => {
      const res = await api('case/create', { name, patientName, patientId: `B-${stamp}-${name.length}` }, token);
      expect(res.code, res.msg).toBe(200);
      return res.data.caseCode as string;
    };
    const binned = await made(`Binned ${stamp}`, 'Oda Lien');
    const held = await made(`Held binned ${stamp}`, 'Per Vik');
    expect((await api('case/legalHold', { caseCode: held, reason: 'Inquiry 7' }, token)).code).toBe(200);
    expect((await api('case/delete', { caseCodes: [binned, held] }, token)).code).toBe(200);

    const { context, page } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.getByTestId('menu-recycleBin').click();
    const heldRow = page.getByTestId(`recycle-row-${held}`);
    await heldRow.waitFor();
    await heldRow.getByTestId('recycle-held').waitFor();
    expect(await heldRow.getByTestId('recycle-erase').count()).toBe(0);
    expect(await heldRow.getByTestId('recycle-purge').count()).toBe(0);
    // Chosen with another, the held case keeps the batch's deletion for good from being offered.
    await heldRow.locator('input[type=checkbox]').check();
    expect(await page.getByTestId('recycle-batch-purge').isDisabled()).toBe(true);
    await heldRow.locator('input[type=checkbox]').uncheck();

    const row = page.getByTestId(`recycle-row-${binned}`);
    await row.getByTestId('recycle-erase').click();
    const boxes = page.getByTestId('erase-cases').locator('input[type=checkbox]');
    await expect.poll(() => boxes.count()).toBe(1);
    await page.getByTestId('erase-reason').fill('Request of 20 November, ref. 40');
    await page.getByTestId('erase-typed').fill('Oda Lien');
    await page.getByTestId('erase-confirm').click();
    // A sensitive action: the password, unless it was given in the last minutes of this session.
    const password = page.getByTestId('password-prompt-input');
    const certificate = page.getByTestId('erasure-certificate');
    await Promise.race([password.waitFor(), certificate.waitFor()]);
    if (await password.isVisible()) {
      await password.fill(PASSWORD);
      await page.getByTestId('password-prompt-ok').click();
    }
    await certificate.waitFor();
    expect(await certificate.textContent()).toContain('Cases erased1');
    await page.getByTestId('erasure-done').click();
    await page.waitForURL((u) => u.pathname === '/case-management');
    // Gone from the bin; the held case is still there.
    const bin = await api('case/recycleBin', { pageNum: 1, pageSize: 100 }, token);
    const codes = (bin.data.list as Array<{ caseCode: string }>).map((c) => c.caseCode);
    expect(codes).toContain(held);
    expect(codes).not.toContain(binned);
    await context.close();
  });
});
