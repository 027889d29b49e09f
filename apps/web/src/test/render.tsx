import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';

const mounted: { root: Root; host: HTMLDivElement }[] = [];

/** Renders into a new container appended to the page. */
export async function mount(node: ReactNode): Promise<HTMLDivElement> {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  mounted.push({ root, host });
  await act(async () => root.render(node));
  return host;
}

/** Unmounts everything `mount` rendered and removes its containers. */
export function unmount() {
  for (const { root, host } of mounted.splice(0).reverse()) {
    act(() => root.unmount());
    host.remove();
  }
}

/** For afterEach: unmount, and clear what antd left in the page (popups, modals). */
export function cleanup() {
  unmount();
  document.body.innerHTML = '';
}

export interface QueryOptions {
  /** Seeded data stays fresh: the screen renders from the cache without asking again. */
  fresh?: boolean;
  /** Fills the cache before the first render. */
  seed?: (qc: QueryClient) => void;
}

/** A query client that does not retry (the http client's errors reach the screen at once). */
export function testQueryClient({ fresh = false, seed }: QueryOptions = {}): QueryClient {
  const qc = new QueryClient({
    defaultOptions: { queries: fresh ? { staleTime: Infinity, retry: false } : { retry: false } },
  });
  seed?.(qc);
  return qc;
}

/** Renders `node` under a QueryClientProvider. */
export async function renderWithQuery(node: ReactNode, opts: QueryOptions = {}) {
  const qc = testQueryClient(opts);
  const host = await mount(<QueryClientProvider client={qc}>{node}</QueryClientProvider>);
  return { host, qc };
}

/** Renders routes in a memory router that starts at `path`, under a QueryClientProvider. */
export async function renderWithProviders(routes: RouteObject[], path: string, opts: QueryOptions = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const { host, qc } = await renderWithQuery(<RouterProvider router={router} />, opts);
  return { host, qc, router };
}

/** One screen at `routePath`; any other address shows a placeholder with the test id "elsewhere". */
export function renderScreen(path: string, routePath: string, element: ReactNode, opts: QueryOptions = {}) {
  return renderWithProviders(
    [
      { path: routePath, element },
      { path: '*', element: <div data-testid="elsewhere" /> },
    ],
    path,
    opts,
  );
}
