import { beforeEach, describe, expect, it, vi } from 'vitest';

// The page table replaced by loaders that only count: which first screens start loading at start-up.
const loads = vi.hoisted(() => ({ login: 0, register: 0, cases: 0, dashboard: 0, layout: 0, theme: 0 }));
vi.mock('../config/pages', () => {
  const page = (key: keyof typeof loads) => () => {
    loads[key] += 1;
    return Promise.resolve({ default: () => null });
  };
  return {
    PUBLIC_PAGES: [
      { path: '/login', plain: true, load: page('login') },
      { path: '/register', load: page('register') },
    ],
    MENU_PAGES: {
      CaseList: { path: '/case-management', load: page('cases') },
      Dashboard: { path: '/dashboard', load: page('dashboard') },
    },
  };
});
vi.mock('../components/lazyThemed', () => ({
  loadAntdTheme: () => {
    loads.theme += 1;
    return Promise.resolve({});
  },
}));
vi.mock('./layouts/MainLayout', () => {
  loads.layout += 1;
  return { default: () => null };
});

const { warmFirstScreen } = await import('./warmFirstScreen');

beforeEach(() => {
  for (const key of Object.keys(loads) as (keyof typeof loads)[]) loads[key] = 0;
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('warmFirstScreen', () => {
  it("starts a public screen's code, signed in or not, and nothing else", async () => {
    warmFirstScreen('/login', false);
    warmFirstScreen('/register/', true);
    await settle();
    expect(loads).toMatchObject({ login: 1, register: 1, cases: 0, dashboard: 0 });
  });

  it("leaves antd's theme out of the login page's start, and starts it for other screens", async () => {
    warmFirstScreen('/login', false);
    await settle();
    expect(loads.theme).toBe(0);
    warmFirstScreen('/register', false);
    await settle();
    expect(loads.theme).toBe(1);
  });

  it("starts a menu screen's code and the layout only for a signed-in visitor", async () => {
    warmFirstScreen('/case-management', false);
    await settle();
    expect(loads.cases).toBe(0);
    warmFirstScreen('/case-management', true);
    await settle();
    expect(loads.cases).toBe(1);
    expect(loads.layout).toBe(1);
    expect(loads.theme).toBe(1);
  });

  it('leaves a detail address (with its own parameters) to its route', async () => {
    warmFirstScreen('/case-management/detail/abc', true);
    await settle();
    expect(loads).toMatchObject({ cases: 0, dashboard: 0, login: 0 });
  });
});
