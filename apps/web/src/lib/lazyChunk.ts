import { lazy, type ComponentType } from 'react';
import { API_BASE } from '@portal/contracts';

/** How long to wait between two looks at whether the server answers again: doubling from the first, up to the last. */
export const SERVER_BACK_DELAYS_MS = { first: 1_000, max: 15_000 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether the server answers at all (its liveness probe: no database, no session). */
export async function serverAnswers(): Promise<boolean> {
  try {
    const res = await fetch(`${API_BASE}/common/live`, { cache: 'no-store' });
    return res.ok;
  } catch {
    return false;
  }
}

/** Resolves once the server answers again: a reload before then would land on the browser's own error page. */
export async function untilServerAnswers(answers: () => Promise<boolean> = serverAnswers): Promise<void> {
  for (let delay = SERVER_BACK_DELAYS_MS.first; !(await answers());) {
    await sleep(delay);
    delay = Math.min(SERVER_BACK_DELAYS_MS.max, delay * 2);
  }
}

/**
 * Code loaded on demand that outlives a server restart or a new release: a failed load waits until the server answers
 * and tries once more; failing again with the server up means the release changed the file names, so the page reloads.
 * It never rejects: a rejected lazy component would take the whole page down with it (React keeps the failure).
 */
export async function loadChunk<T>(
  load: () => Promise<T>,
  deps: { answers?: () => Promise<boolean>; reload?: () => void } = {},
): Promise<T> {
  try {
    return await load();
  } catch {
    await untilServerAnswers(deps.answers);
    try {
      return await load();
    } catch {
      (deps.reload ?? (() => window.location.reload()))();
      return new Promise<T>(() => undefined);
    }
  }
}

/** React.lazy whose code survives a server that is briefly away (see `loadChunk`). Use it for every lazy component. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: any component's props.
export function lazyChunk<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(() => loadChunk(load));
}
