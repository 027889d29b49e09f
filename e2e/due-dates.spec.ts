import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { addWorkingDays, dateInTimeZone, isoWeekday } from '@portal/contracts';
import { api, apiLogin, launch, newPage, signIn, pickOption as pick } from './support.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The input of an antd control, whether its test id sits on the input or on a wrapper. */
const field = (testId: string) => `input[data-testid="${testId}"], [data-testid="${testId}"] input`;

describe('due dates', () => {
  it("the clinic's send dialog shows the estimated date in the laboratory's working days, skipping its weekend and closed day", async () => {
    const stamp = Date.now().toString(36);
    const productName = `Zirconia crown ${stamp}`;
    const WEEK = [1, 2, 3, 4, 5];

    // The laboratory adds a product of 3 working days and closes on its next working day.
    const lab = await newPage(browser);
    await signIn(lab.page, 'lab');
    await lab.page.getByTestId('layout-sidebar').waitFor();
    await lab.page.goto('/own-space?tab=products');
    await lab.page.getByTestId('product-add').click();
    await lab.page.getByTestId('product-name').fill(productName);
    await pick(lab.page, 'product-work-type', 'Crown');
    await lab.page.locator(field('product-turnaround')).fill('3');
    await lab.page.getByTestId('product-materials').click();
    await lab.page.keyboard.type('Zirconia');
    await lab.page.keyboard.press('Enter');
    await lab.page.getByTestId('product-save').click();
    await lab.page.getByTestId(`product-row-${productName}`).waitFor();

    const labToken = await apiLogin('lab');
    const before = (await api('catalogue/calendar', {}, labToken)).data;
    const timeZone = before.saved ? before.timeZone : Intl.DateTimeFormat().resolvedOptions().timeZone;
    const today = dateInTimeZone(new Date(), timeZone);
    const closed = addWorkingDays(today, 1, { workingWeekdays: WEEK, closedDates: [] });
    for (const d of WEEK)
      if (!before.workingWeekdays.includes(d))
        await lab.page.getByTestId('calendar-weekdays').locator(`input[value="${d}"]`).check();
    for (const d of [6, 7])
      if (before.workingWeekdays.includes(d))
        await lab.page.getByTestId('calendar-weekdays').locator(`input[value="${d}"]`).uncheck();
    await lab.page.locator(field('calendar-date')).click();
    await lab.page.locator(field('calendar-date')).fill(closed);
    await lab.page.keyboard.press('Enter');
    await lab.page.getByTestId('calendar-note').fill('Staff training');
    await lab.page.getByTestId('calendar-add-date').click();
    await lab.page.getByTestId(`closed-${closed}`).waitFor();
    await lab.page.getByTestId('calendar-save').click();
    await expect
      .poll(async () => (await api('catalogue/calendar', {}, labToken)).data.closedDates)
      .toContainEqual({
        date: closed,
        note: 'Staff training',
      });
    const calendar = (await api('catalogue/calendar', {}, labToken)).data;
    expect(calendar.workingWeekdays).toEqual(WEEK);

    // What the laboratory's calendar gives, and what a calendar without the closed day would have given.
    const expected = addWorkingDays(today, 3, { workingWeekdays: WEEK, closedDates: [closed] });
    expect(expected).not.toBe(addWorkingDays(today, 3, { workingWeekdays: WEEK, closedDates: [] }));
    expect([6, 7]).not.toContain(isoWeekday(expected));

    // The clinic opens "Send to lab" from a case, picks the laboratory and the product.
    const clinicToken = await apiLogin('clinic');
    const made = await api('case/create', { name: `Due date ${stamp}`, patientName: `Due ${stamp}` }, clinicToken);
    const clinic = await newPage(browser);
    await signIn(clinic.page, 'clinic');
    await clinic.page.getByTestId('layout-sidebar').waitFor();
    await clinic.page.goto(`/case-management/detail/${made.data.caseCode}`);
    await clinic.page.getByTestId('send-to-lab').click();
    await clinic.page.getByTestId('send-dialog').waitFor();
    await pick(clinic.page, 'send-lab', 'Precision Dental Lab');
    // How the laboratory has done lately, as the clinic chooses it: its scorecard's last 90 days.
    const partners = await api('partner/list', { tab: 'mine', pageSize: 100 }, clinicToken);
    const precision = partners.data.list.find(
      (p: { organization: { name: string } }) => p.organization.name === 'Precision Dental Lab',
    );
    const card = await api('scorecard/lab', { partnerCode: precision.partnerCode }, clinicToken);
    const recent = card.data.windows.find((w: { days: number }) => w.days === 90);
    const line = clinic.page.getByTestId('send-lab-scorecard');
    await line.waitFor();
    expect(await line.innerText()).toContain(
      recent.shipped === 0 && recent.remakes === 0
        ? 'Last 90 days: no orders shipped yet'
        : `Last 90 days: ${recent.onTimeRate === null ? '—' : `${Math.round(recent.onTimeRate * 100)}%`} on time`,
    );
    await pick(clinic.page, 'send-order-type', 'Restoration');
    await pick(clinic.page, 'send-product', productName);
    const estimate = clinic.page.getByTestId('send-estimate');
    await estimate.waitFor();
    expect(await estimate.getAttribute('data-date')).toBe(expected);
    // The date is written out with its weekday, in the reader's language.
    const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'UTC' }).format(
      new Date(`${expected}T00:00:00Z`),
    );
    expect(await estimate.innerText()).toContain(weekday);

    // Sent, the order keeps the estimate and names the product.
    await clinic.page.getByTestId('tooth-16').click();
    await pick(clinic.page, 'tooth-16-material', 'Zirconia');
    await pick(clinic.page, 'tooth-16-shade', 'A2');
    await clinic.page.getByTestId('send-submit').click();
    await clinic.page.getByTestId('send-done').waitFor();
    const orders = await api('order/list', { pageNum: 1, pageSize: 20 }, clinicToken);
    const order = orders.data.list.find((o: { caseCode: string }) => o.caseCode === made.data.caseCode);
    expect(order).toMatchObject({ estimatedDeliveryDate: expected, product: { name: productName } });

    // Put the demo laboratory's calendar back, for whoever tries the portal next.
    await api(
      'catalogue/saveCalendar',
      { workingWeekdays: WEEK, closedDates: [], timeZone: calendar.timeZone },
      labToken,
    );
    await lab.context.close();
    await clinic.context.close();
  }, 120_000);
});
