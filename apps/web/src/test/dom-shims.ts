import { vi } from 'vitest';

/** What Ant Design needs from a browser that jsdom lacks, for page and panel tests. */
Object.defineProperty(window, 'matchMedia', {
  value: (q: string) => ({
    matches: false,
    media: q,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    onchange: null,
    dispatchEvent: () => false,
  }),
});
(globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// Rendering antd in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });
