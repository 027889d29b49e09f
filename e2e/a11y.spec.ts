import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, newPage, signIn } from './support.js';

/**
 * Every screen every demo account's menu offers, and the public screens, checked the way a screen reader and a
 * phone would meet them: axe-core's WCAG 2 A/AA rules in both themes (serious and critical findings fail), and at a
 * phone's and a tablet's width no screen scrolls sideways. A screen added to a menu is checked without anyone listing it here.
 */
// Evaluated through the debugging protocol: the portal's content security policy refuses an injected script tag.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ACCOUNTS = ['clinic', 'lab', 'dealer', 'oem', 'admin'] as const;
const PUBLIC = [
  '/login',
  '/register',
  '/forget-pass-account',
  '/system-check',
  '/third/auth-login',
  '/third/auth-login?appid=x',
  '/activate-app/x',
  '/as-auth-redirect/x',
  '/login-jump-page/x',
];
const PHONE = { width: 390, height: 844 };
const TABLET = { width: 768, height: 1024 };

/** A live share page of a demo case, its password page, and the page a link without a code shows (spec §2). */
async function sharePages(): Promise<string[]> {
  const token = await apiLogin('clinic');
  const cases = await api('case/list', { pageSize: 50 }, token);
  const caseCode = (cases.data.list as Array<{ caseCode: string; fileCount: number }>).find(
    (c) => c.fileCount > 0,
  )!.caseCode;
  const made = await api('share/create', { resourceType: 'case', resourceCode: caseCode, expiresInDays: 7 }, token);
  const url = new URL(made.data.url as string);
  const locked = await api(
    'share/create',
    { resourceType: 'case', resourceCode: caseCode, expiresInDays: 1, password: 'open sesame' },
    token,
  );
  const lockedUrl = new URL(locked.data.url as string);
  return [url.pathname + url.search, lockedUrl.pathname + lockedUrl.search, '/case-show'];
}

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
  const { scroll, width, widest } = await page.evaluate(() => {
    const width = window.innerWidth;
    // What reaches past the right edge (outside the tables and tab strips that scroll inside themselves), to name it.
    const outside = [...document.querySelectorAll('body *')].filter(
      (e) =>
        e.getBoundingClientRect().right > width + 1 &&
        !e.closest('.ant-table-content, .ant-table-body, .ant-tabs-nav-wrap'),
    );
    const last = outside[outside.length - 1];
    const widest = last
      ? `${last.tagName.toLowerCase()}.${String(last.className).split(' ').slice(0, 3).join('.')}`
      : '';
    return { scroll: document.documentElement.scrollWidth, width, widest };
  });
  return scroll > width + 1 ? [`${where}: ${scroll} px wide on a ${width} px screen (${widest})`] : [];
}

/**
 * How each screen is met: axe in the light and the dark theme on a desktop; on a phone and a tablet, no sideways
 * scroll. Both widths are checked on one load of the screen (the layout follows a resize as it follows a rotation).
 */
const VIEWS = [
  { name: 'light', check: 'axe' },
  { name: 'dark', check: 'axe', query: '?colorScheme=dark' },
  { name: 'phone and tablet', check: 'width', viewports: [PHONE, TABLET] },
] as const;
type View = (typeof VIEWS)[number];

async function check(page: Page, view: View, path: string, where: string, signedIn = true) {
  // Each screen is loaded at the first width (as a phone opens it), then resized.
  if ('viewports' in view) await page.setViewportSize(view.viewports[0]);
  await page.goto(`${path}${'query' in view ? view.query : ''}`);
  await settled(page);
  // Public screens may keep the light theme (spec §2); the portal's own screens follow the choice.
  if ('query' in view && signedIn)
    expect(await page.evaluate(() => document.documentElement.dataset.theme), `${where} theme`).toBe('dark');
  if (view.check === 'axe') return axeFindings(page, where);
  const problems: string[] = [];
  for (const [i, viewport] of view.viewports.entries()) {
    if (i > 0) {
      await page.setViewportSize(viewport);
      // The breakpoint listeners run in the next frames; the layout then moves by CSS transitions (the side menu).
      await page.evaluate(async () => {
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        const moving = document.getAnimations().map((a) => a.finished.catch(() => undefined));
        await Promise.race([Promise.all(moving), new Promise((done) => setTimeout(done, 2000))]);
      });
    }
    problems.push(...(await sideways(page, `${where} at ${viewport.width} px`)));
  }
  return problems;
}

describe('every screen', () => {
  it.each(VIEWS)(
    'passes the WCAG 2 A/AA rules or fits the screen: $name, public screens included',
    async (view) => {
      const problems: string[] = [];
      let screens = 0;
      const open = () => newPage(browser);
      for (const path of [...PUBLIC, ...(await sharePages())]) {
        const { context, page } = await open();
        problems.push(...(await check(page, view, path, `${path} (${view.name})`, false)));
        screens += 1;
        await context.close();
      }
      for (const account of ACCOUNTS) {
        const paths = await screensOf(account);
        const { context, page } = await open();
        await signIn(page, account);
        await page.waitForURL((u) => !u.pathname.startsWith('/login'));
        for (const path of paths) {
          problems.push(...(await check(page, view, path, `${account} ${path} (${view.name})`)));
          screens += 1;
        }
        await context.close();
      }
      console.log(`${view.name}: ${screens} screens checked`);
      expect(screens).toBeGreaterThan(15);
      expect(problems).toEqual([]);
    },
    600_000,
  );
});
