import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, newPage, signIn } from './support.js';

/**
 * Every screen every demo account's menu offers, and the public screens, checked the way a screen reader and a
 * phone would meet them: axe-core's WCAG 2 A/AA rules (serious and critical findings fail), and at a phone's width
 * no screen scrolls sideways. A screen added to a menu is checked without anyone listing it here.
 */
// Evaluated through the debugging protocol: the portal's content security policy refuses an injected script tag.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ACCOUNTS = ['clinic', 'lab', 'dealer', 'oem', 'admin'] as const;
const PUBLIC = ['/login', '/register', '/forget-pass-account'];
const PHONE = { width: 390, height: 844 };

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

interface MenuItem {
  path: string | null;
  type: number;
  showFlag: boolean;
  children: MenuItem[];
}

/** The screens of an account's menu that open without an identifier. */
async function screensOf(account: string): Promise<string[]> {
  const token = await apiLogin(account);
  const res = await api('permission/listUserMenu', {}, token);
  const paths: string[] = [];
  const walk = (items: MenuItem[]) => {
    for (const m of items) {
      if (m.type === 1 && m.path && m.showFlag && !m.path.includes(':')) paths.push(m.path);
      walk(m.children ?? []);
    }
  };
  walk(res.data.menus as MenuItem[]);
  return [...new Set(paths)];
}

/** Waits until the screen has drawn its data: no spinner and no skeleton left. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page
    .waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton-active'), undefined, {
      timeout: 10_000,
    })
    .catch(() => undefined);
}

async function axeFindings(page: Page, where: string): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<any> } }).axe;
    // antd's table keeps a hidden row to measure column widths; nobody reaches it.
    const result = await axe.run({ exclude: [['.ant-table-measure-row']] } as unknown as Document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    type Node = { target: string[]; failureSummary?: string };
    return (result.violations as Array<{ id: string; impact: string; nodes: Node[] }>).map((v) => ({
      id: v.id,
      impact: v.impact,
      count: v.nodes.length,
      first: v.nodes[0]?.target.join(' '),
      why: (v.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}, ${v.count}×, e.g. ${v.first}: ${v.why})`);
}

async function sideways(page: Page, where: string): Promise<string[]> {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  return scroll > width + 1 ? [`${where}: ${scroll} px wide on a ${width} px phone`] : [];
}

describe('every screen', () => {
  it('passes the WCAG 2 A/AA rules and fits a phone, public screens included', async () => {
    const problems: string[] = [];
    let screens = 0;
    for (const path of PUBLIC) {
      for (const viewport of [undefined, PHONE]) {
        const { context, page } = await newPage(browser);
        if (viewport) await page.setViewportSize(viewport);
        await page.goto(path);
        await settled(page);
        const where = `${path}${viewport ? ' (phone)' : ''}`;
        problems.push(...(viewport ? await sideways(page, where) : await axeFindings(page, where)));
        screens += 1;
        await context.close();
      }
    }
    for (const account of ACCOUNTS) {
      const paths = await screensOf(account);
      for (const viewport of [undefined, PHONE]) {
        const { context, page } = await newPage(browser);
        if (viewport) await page.setViewportSize(viewport);
        await signIn(page, account);
        await page.waitForURL((u) => !u.pathname.startsWith('/login'));
        for (const path of paths) {
          await page.goto(path);
          await settled(page);
          const where = `${account} ${path}${viewport ? ' (phone)' : ''}`;
          problems.push(...(viewport ? await sideways(page, where) : await axeFindings(page, where)));
          screens += 1;
        }
        await context.close();
      }
    }
    console.log(`accessibility and phone layout: ${screens} screens checked`);
    expect(screens).toBeGreaterThan(30);
    expect(problems).toEqual([]);
  }, 600_000);
});
