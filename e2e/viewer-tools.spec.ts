import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, demoOrder, launch, newPage, paintedPixels, paintedSpots, signIn } from './support.js';

/**
 * The viewer's tools for the clinic and the laboratory side by side: the clinic pins a note on the case's scan, the
 * laboratory reads it on the order and draws the margin line around the prepared tooth, the clinic sees that line.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The demo's cases (other journeys add cases of their own, with scans but no dentist). */
const DEMO_CASES = ['Crown 16', 'Bridge 34-36'];

/** A demo case whose scans (several) the viewer can show in millimetres, once the server has prepared them. */
async function demoCaseWithScans(token: string) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const cases = await api('case/list', { pageSize: 100 }, token);
    for (const c of cases.data.list as Array<{ caseCode: string; fileCount: number; name: string }>) {
      if (c.fileCount < 2 || !DEMO_CASES.includes(c.name)) continue;
      const detail = await api('case/detail', { caseCode: c.caseCode }, token);
      const models = (detail.data.files as Array<{ kind: string; viewerStatus: string }>).filter(
        (f) => f.kind === 'model',
      );
      if (models.length > 1 && models.every((f) => f.viewerStatus === 'ready')) return c;
    }
    if (Date.now() > deadline) throw new Error('no demo case with scans ready');
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function openModels(page: Page, testId: string) {
  await page.getByTestId(testId).click();
  await page.getByTestId('viewer-canvas').waitFor();
  await expect.poll(() => paintedPixels(page), { timeout: 60_000, interval: 500 }).toBeGreaterThan(500);
}

describe('viewer tools', () => {
  it('a note pinned by the clinic, read by the laboratory, who draws the margin line the clinic then sees', async () => {
    const clinicToken = await apiLogin('clinic');
    const demo = await demoCaseWithScans(clinicToken);
    // The demo's cases come with the clinic's dentists.
    expect((await api('case/detail', { caseCode: demo.caseCode }, clinicToken)).data.dentist.name).toMatch(/^Dr\. /);
    const { orderCode, labToken } = await demoOrder({
      caseName: '',
      patientName: '',
      tooth: 36,
      caseCode: demo.caseCode,
    });
    // The laboratory gets the patient's scans once it accepts the order.
    expect((await api('order/action', { orderCodes: [orderCode], action: 'accept' }, labToken)).code).toBe(200);

    // The clinic pins a note where it clicks on the scan.
    const clinic = await newPage(browser);
    await signIn(clinic.page, 'clinic');
    await clinic.page.getByTestId('layout-sidebar').waitFor();
    await clinic.page.goto(`/case-management/detail/${demo.caseCode}`);
    await openModels(clinic.page, 'file-view-models');
    await clinic.page.getByTestId('viewer-annotate').click();
    await clinic.page.getByTestId('viewer-tool-hint').getByText('Click a scan where the note belongs').waitFor();
    const [spot] = await paintedSpots(clinic.page, [0.3]);
    await clinic.page.mouse.click(spot!.x, spot!.y);
    await clinic.page.getByTestId('viewer-annotation-text').fill('Open contact 36/37, please close it');
    await clinic.page.getByTestId('viewer-annotation-save').click();
    const note = clinic.page.getByTestId('viewer-annotation');
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.innerText()).toContain('Open contact 36/37, please close it');
    const saved = (await api('case/annotation/list', { caseCode: demo.caseCode }, clinicToken)).data.list;
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ number: 1, text: 'Open contact 36/37, please close it' });

    // The laboratory reads it on the order (no delete there), and draws a margin line around tooth 36.
    const lab = await newPage(browser);
    await signIn(lab.page, 'lab');
    await lab.page.getByTestId('layout-sidebar').waitFor();
    await lab.page.goto(`/order-management/detail/${orderCode}`);
    await lab.page.getByTestId('order-detail').waitFor();
    await openModels(lab.page, 'order-file-view-models');
    await lab.page.getByTestId('viewer-annotation').getByText('Open contact 36/37, please close it').waitFor();
    expect(await lab.page.getByTestId('viewer-annotation-delete').count()).toBe(0);
    await lab.page.getByTestId('viewer-margin-tool').click();
    // One scan shown, so every click lands on it (a click on another scan starts the line there).
    const toggles = lab.page.locator('[data-testid^="viewer-toggle-"]');
    for (let i = 1; i < (await toggles.count()); i++) await toggles.nth(i).uncheck();
    // The picture shows the one scan once it stops changing: the spots are taken from that picture.
    let before = -1;
    await expect
      .poll(
        async () => {
          const now = await paintedPixels(lab.page);
          const still = now === before;
          before = now;
          return still;
        },
        { timeout: 30_000, interval: 700 },
      )
      .toBe(true);
    const marginPoints = lab.page.getByTestId('viewer-margin-points');
    const spots = await paintedSpots(lab.page, [0.2, 0.25, 0.3]);
    for (const [i, p] of spots.entries()) {
      await lab.page.mouse.click(p.x, p.y);
      // Each click on the scan marks one point (the answer of the renderer comes back asynchronously).
      await expect.poll(() => marginPoints.getAttribute('data-count')).toBe(String(i + 1));
    }
    await lab.page.getByTestId('viewer-margin-save').click();
    await lab.page.locator('[data-testid="viewer-margin-line"][data-tooth="36"]').waitFor();
    const lines = (await api('order/marginLine/list', { orderCode }, labToken)).data.list;
    expect(lines).toHaveLength(1);
    expect(lines[0].tooth).toBe(36);
    expect(lines[0].points).toHaveLength(3);

    // The clinic's order page shows the laboratory's line.
    await clinic.page.goto(`/order-management/detail/${orderCode}`);
    await clinic.page.getByTestId('order-detail').waitFor();
    await openModels(clinic.page, 'order-file-view-models');
    const line = clinic.page.locator('[data-testid="viewer-margin-line"][data-tooth="36"]');
    await line.waitFor();
    expect(await line.innerText()).toContain('Margin line of tooth 36');

    // The clinic removes its note again: the laboratory's order no longer lists it.
    await api('case/annotation/delete', { annotationCode: saved[0].annotationCode }, clinicToken);
    expect((await api('order/annotation/list', { orderCode }, labToken)).data.list).toHaveLength(0);
    await clinic.context.close();
    await lab.context.close();
  });
});
