import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, demoOrder, launch, mailedLink, newPage, signIn } from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** A 400×200 PNG, red on its left half and blue on its right, drawn by the browser. */
async function halfRedHalfBlue(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 400;
    c.height = 200;
    const ctx = c.getContext('2d')!;
    ctx.fillStyle = '#ff0000';
    ctx.fillRect(0, 0, 200, 200);
    ctx.fillStyle = '#0000ff';
    ctx.fillRect(200, 0, 200, 200);
    return c.toDataURL('image/png').split(',')[1]!;
  });
  return Buffer.from(base64, 'base64');
}

/** The colour of a pixel of an image the page shows, as [r, g, b]. */
async function pixelOf(page: Page, src: string, x: number, y: number) {
  return page.evaluate(
    async ({ src, x, y }) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(x, y, 1, 1).data;
      return { size: [img.naturalWidth, img.naturalHeight], rgb: [d[0], d[1], d[2]] };
    },
    { src, x, y },
  );
}

describe('own space', () => {
  it('crops an avatar in the browser and shows it in the header', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'oem');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/own-space');
    await page.getByTestId('own-avatar').waitFor();
    const picture = await halfRedHalfBlue(page);
    await page
      .getByTestId('own-avatar')
      .locator('input[type=file]')
      .setInputFiles({ name: 'portrait.png', mimeType: 'image/png', buffer: picture });

    // The crop starts centred on the middle square; dragging the picture right shows its red left part only.
    const canvas = page.getByTestId('avatar-crop-canvas');
    await canvas.waitFor();
    // Measured once the dialog's opening zoom has ended (the box stays put for two frames): measured mid-zoom, the
    // press could land beside the still small dialog, on its mask, and that click closed it.
    await canvas.hover({ trial: true });
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 150, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.getByTestId('avatar-crop-save').click();
    await canvas.waitFor({ state: 'detached' });

    const headerImage = page.getByTestId('header-avatar').locator('img');
    await headerImage.waitFor();
    const src = (await headerImage.getAttribute('src'))!;
    expect(src).toMatch(/^\/api\/v2\/avatar\/[0-9a-f]{32}$/);
    // The uploaded avatar is the cropped square: 256 pixels, red where the uncropped centre would be blue.
    const right = await pixelOf(page, src, 240, 128);
    expect(right.size).toEqual([256, 256]);
    expect(right.rgb[0]).toBeGreaterThan(200);
    expect(right.rgb[2]).toBeLessThan(50);

    // It stays after a reload: the session's user carries it.
    await page.reload();
    expect(await page.getByTestId('header-avatar').locator('img').getAttribute('src')).toBe(src);
    await context.close();
  });

  it('writes a phone number another account has under the phone field, and saves a free one', async () => {
    // The dealer's account takes a number first; the OEM's administrator then types it.
    const taken = `+49 30 ${Date.now() % 10_000_000}`;
    const dealerToken = await apiLogin('dealer');
    const dealer = (await api('user/info', {}, dealerToken)).data;
    expect((await api('user/edit', { displayName: dealer.displayName, phone: taken }, dealerToken)).code).toBe(200);
    const { page, context } = await newPage(browser);
    await signIn(page, 'oem');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/own-space');
    await page.getByTestId('own-phone').fill(taken);
    await page.getByTestId('own-save').click();
    const phoneItem = page.locator('.ant-form-item').filter({ has: page.getByTestId('own-phone') });
    await phoneItem.locator('.ant-form-item-explain-error').waitFor();
    expect(await phoneItem.locator('.ant-form-item-explain-error').innerText()).toMatch(/phone/i);
    // One feedback: no message beside the field.
    expect(await page.locator('.ant-message-notice').count()).toBe(0);
    await page.getByTestId('own-phone').fill(`${taken}9`);
    await page.getByTestId('own-save').click();
    await page.locator('.ant-message-notice').getByText('Saved').waitFor();
    await api('user/edit', { displayName: dealer.displayName, phone: '' }, dealerToken);
    await context.close();
  });

  it('adds a contact who confirms from the mailbox and then receives the next order mail', async () => {
    const stamp = Date.now().toString(36);
    const email = `desk-${stamp}@example.test`;
    const { page, context } = await newPage(browser);
    await signIn(page, 'clinic');
    await page.getByTestId('layout-sidebar').waitFor();
    await page.goto('/own-space?tab=contacts');
    await page.getByTestId('contact-add').click();
    await page.getByTestId('contact-userName').fill('Front desk');
    await page.getByTestId('contact-email').fill(email);
    await page.getByTestId('contact-add-save').click();
    const status = page.getByTestId(`contact-status-${email}`);
    await status.waitFor();
    expect(await status.innerText()).toBe('Waiting for confirmation');

    // The contact opens the link from the mailbox.
    await page.goto('/mailbox');
    await page.getByTestId('mailbox-email').fill(email);
    await page.getByTestId('mailbox-submit').click();
    const link = await mailedLink(page, email, '/contact-email-verify/');
    await page.goto(link);
    const result = page.getByTestId('contact-verify-result');
    await result.waitFor();
    expect(await result.innerText()).toBe('Your address is confirmed');

    // A link that is not one (or was replaced by a newer one) says so.
    await page.goto('/contact-email-verify/not-a-mailed-code');
    await page.getByTestId('contact-verify-result').getByText('Invalid link').waitFor();

    await page.goto('/own-space?tab=contacts');
    await page.getByTestId(`contact-status-${email}`).getByText('Verified').waitFor();

    // The laboratory accepts the clinic's next order: the contact is mailed about it.
    const { labToken, orderCode } = await demoOrder({
      caseName: `Inlay ${stamp}`,
      patientName: `Desk ${stamp}`,
      tooth: 26,
      shade: 'A3',
    });
    expect((await api('order/action', { orderCodes: [orderCode], action: 'accept' }, labToken)).code).toBe(200);

    const admin = await apiLogin('admin');
    let mailed: { subject: string; text: string } | undefined;
    for (let attempt = 0; attempt < 40 && !mailed; attempt++) {
      const outbox = await api('mail/listOutbox', { pageSize: 50 }, admin);
      mailed = (outbox.data.list as Array<{ to: string; subject: string; text: string }>).find(
        (m) => m.to === email && m.text.includes(orderCode),
      );
      if (!mailed) await page.waitForTimeout(250);
    }
    expect(mailed?.subject).toContain('Order accepted');
    expect(mailed?.text).toContain('as a contact of');
    await context.close();
  });
});
