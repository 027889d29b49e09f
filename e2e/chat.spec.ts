import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, newPage, signIn } from './support.js';

/**
 * Chat between a clinic and its laboratory in two browsers (docs/product-decisions.md, "Chat"): typing marks and
 * messages arrive over the live socket, and the sender sees when the other side has read.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const liveUp = (page: Page) => page.locator('[data-testid="layout-header"][data-live="up"]').waitFor();

async function openConversation(page: Page, account: string, code: string) {
  await signIn(page, account);
  await page.getByTestId('layout-sidebar').waitFor();
  await page.goto('/chat');
  await liveUp(page);
  await page.getByTestId(`chat-conversation-${code}`).click();
  await page.getByTestId('chat-input').waitFor();
}

describe('chat', () => {
  it('two users chat: the typing mark, the message and the read mark reach the other browser live', async () => {
    const clinicToken = await apiLogin('clinic');
    const labToken = await apiLogin('lab');
    const labName = (await api('user/info', {}, labToken)).data.organization.name as string;
    const conversations = await api('chat/conversations', {}, clinicToken);
    const conversation = (conversations.data.list as Array<{ code: string; kind: string; title: string }>).find(
      (c) => c.kind === 'partner' && c.title === labName,
    );
    expect(conversation).toBeTruthy();
    const code = conversation!.code;
    // The laboratory's side of the same conversation exists once it lists its own.
    await api('chat/conversations', {}, labToken);

    const clinic = (await newPage(browser)).page;
    const lab = (await newPage(browser)).page;
    await openConversation(clinic, 'clinic', code);
    await openConversation(lab, 'lab', code);

    const text = `Margin on 16 looks short, please check ${Date.now().toString(36)}`;
    await clinic.getByTestId('chat-input').pressSequentially('Margin on 16', { delay: 30 });
    await lab.getByTestId('chat-typing').waitFor();
    await clinic.getByTestId('chat-input').fill(text);
    await clinic.getByTestId('chat-send').click();

    // The laboratory's open conversation shows it without a reload; having it on screen reads it.
    await lab.getByTestId('chat-message').filter({ hasText: text }).waitFor();
    await clinic.getByTestId('chat-message').filter({ hasText: text }).getByTestId('chat-read-mark').waitFor();
    // Sent once, shown once on each side.
    expect(await clinic.getByTestId('chat-message').filter({ hasText: text }).count()).toBe(1);
    expect(await lab.getByTestId('chat-message').filter({ hasText: text }).count()).toBe(1);
  });
});
