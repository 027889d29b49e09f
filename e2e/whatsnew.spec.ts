import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, newPage, openSubmenuScreen, signIn } from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Counts the usage batches a page sends, with their events. */
function watchUsage(page: Page) {
  const batches: Array<{ events: Array<{ kind: string; screen: string; loadMs?: number }> }> = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v2/usage/events')) batches.push(request.postDataJSON());
  });
  return batches;
}

/** Opens a few screens and uses a button or two, as anyone would. */
async function browse(page: Page) {
  await page.getByTestId('menu-cases').click();
  await page.waitForURL('**/case-management');
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-own-space').click();
  await page.getByTestId('own-space').waitFor();
  await page.getByTestId('menu-cases').click();
  await page.waitForURL('**/case-management');
}

describe('update log, improvement programme and system check', () => {
  it('the super administrator writes an entry; a clinic user sees the mark, opens it, and the mark clears; anyone can read it', async () => {
    const stamp = Date.now().toString(36);
    const admin = await newPage(browser);
    await signIn(admin.page, 'admin');
    await openSubmenuScreen(admin.page, 'account', 'software', '**/account/update-log');
    await admin.page.getByTestId('update-log-new').click();
    await admin.page.getByTestId('update-log-version').fill(`9.${stamp}`);
    await admin.page.getByTestId('update-log-title-en').fill(`Release ${stamp}`);
    await admin.page
      .getByTestId('update-log-markdown-en')
      .fill(
        `## Faster cases\n\n- **Bold ${stamp}**\n\n<script>window.__pwned = true</script><img src=x onerror="window.__pwned = true">`,
      );
    await admin.page.getByTestId('update-log-save').click();
    const link = admin.page.getByTestId('update-log-list').getByRole('link', { name: `Release ${stamp}` });
    await link.waitFor();
    const id = Number((await link.getAttribute('href'))!.split('/').pop());
    expect(id).toBeGreaterThan(0);
    await admin.context.close();

    const clinic = await newPage(browser);
    await signIn(clinic.page, 'clinic');
    const mark = clinic.page.getByTestId('whatsnew-mark');
    await expect.poll(() => mark.getAttribute('data-unseen')).toBe('true');
    await clinic.page.getByTestId('whatsnew-button').click();
    await clinic.page.waitForURL(`**/whatsnew/${id}`);
    await clinic.page.getByTestId('whatsnew-body').getByText(`Bold ${stamp}`).waitFor();
    expect(await clinic.page.getByTestId('whatsnew-body').locator('script, img').count()).toBe(0);
    expect(await clinic.page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await clinic.page.getByTestId('whatsnew-back').click();
    await clinic.page.getByTestId('layout-sidebar').waitFor();
    await expect.poll(() => clinic.page.getByTestId('whatsnew-mark').getAttribute('data-unseen')).toBe('false');
    // Stored on the server: a fresh sign-in shows no mark either.
    const again = await newPage(browser);
    await signIn(again.page, 'clinic');
    await again.page.getByTestId('whatsnew-button').waitFor();
    expect(await again.page.getByTestId('whatsnew-mark').getAttribute('data-unseen')).toBe('false');
    await again.context.close();
    await clinic.context.close();

    const nobody = await newPage(browser);
    await nobody.page.goto(`/whatsnew/${id}`);
    await nobody.page.getByTestId('whatsnew-title').getByText(`Release ${stamp}`).waitFor();
    expect(await nobody.page.getByTestId('whatsnew-version').textContent()).toContain(`9.${stamp}`);
    await nobody.context.close();
  });

  it("an opted-out user's browser sends no usage events; an opted-in one does, and the super administrator sees the counts", async () => {
    const out = await newPage(browser);
    const outBatches = watchUsage(out.page);
    await signIn(out.page, 'lab');
    await out.page.getByTestId('layout-sidebar').waitFor();
    await browse(out.page);
    // Longer than the tracker waits before it sends a batch.
    await out.page.waitForTimeout(6_500);
    expect(outBatches).toEqual([]);
    await out.context.close();

    const opted = await newPage(browser);
    const batches = watchUsage(opted.page);
    await signIn(opted.page, 'clinic');
    await opted.page.getByTestId('layout-sidebar').waitFor();
    await opted.page.getByTestId('user-menu').click();
    await opted.page.getByTestId('user-menu-own-space').click();
    await opted.page.getByTestId('improvement-plan-open').click();
    const dialog = opted.page.getByTestId('improvement-plan-dialog');
    await dialog.getByText('Which screen you open').waitFor();
    await dialog.getByText('How long a screen took to load').waitFor();
    expect(batches).toEqual([]);
    await opted.page.getByTestId('improvement-plan-join').click();
    await expect.poll(() => opted.page.getByTestId('improvement-plan-state').textContent()).toBe('Participating');
    await browse(opted.page);
    await expect.poll(() => batches.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const events = batches.flatMap((b) => b.events);
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'screen', screen: 'cases', loadMs: expect.any(Number) }),
      ]),
    );
    expect(JSON.stringify(batches)).not.toMatch(/clinic|userCode|@/);

    const adminToken = await apiLogin('admin');
    const weekly = await api('usage/weekly', { weeks: 1 }, adminToken);
    expect(weekly.data.list.find((r: { screen: string }) => r.screen === 'cases').screenOpens).toBeGreaterThan(0);

    // Leaving stops it at once.
    await opted.page.getByTestId('user-menu').click();
    await opted.page.getByTestId('user-menu-own-space').click();
    await opted.page.getByTestId('improvement-plan-open').click();
    await opted.page.getByTestId('improvement-plan-leave').click();
    await expect.poll(() => opted.page.getByTestId('improvement-plan-state').textContent()).toBe('Not participating');
    const sent = batches.length;
    await browse(opted.page);
    await opted.page.waitForTimeout(6_500);
    expect(batches.length).toBe(sent);
    await opted.context.close();
  });

  it('the system check, linked from the sign-in page, reports WebGL2, OffscreenCanvas and a measured speed', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/login');
    await page.getByTestId('login-system-check').click();
    await page.waitForURL('**/system-check');
    await expect.poll(() => page.getByTestId('check-webgl2').getAttribute('data-ok')).toBe('true');
    await expect.poll(() => page.getByTestId('check-offscreen').getAttribute('data-ok')).toBe('true');
    expect(await page.getByTestId('check-3d').getAttribute('data-ok')).toBe('true');
    expect(await page.getByTestId('check-timezone').textContent()).toBeTruthy();
    await page.getByTestId('check-speed-run').click();
    await expect
      .poll(() => page.getByTestId('check-upload').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('done');
    expect(await page.getByTestId('check-download').getAttribute('data-state')).toBe('done');
    expect(Number(await page.getByTestId('check-download').getAttribute('data-mbps'))).toBeGreaterThan(0);
    expect(Number(await page.getByTestId('check-upload').getAttribute('data-mbps'))).toBeGreaterThan(0);
    await context.close();
  });
});
