import { useEffect, useState } from 'react';
import { ERRORS } from '@portal/contracts';
import { ApiError } from '../../../lib/http';
import { forgetShareSign, shareSign } from '../../../lib/prefs';
import { openShare, type ShareView } from '../api/shares';

/** How long a visitor waits between tries while the shared resource is prepared (2007), and how many tries. */
export const PREPARING_RETRY_MS = 3000;
export const PREPARING_TRIES = 40;
/** An ended link: 2020, or 2009 for a report's (spec §8). */
const ENDED_CODES = new Set<number>([ERRORS.LINK_EXPIRED.code, ERRORS.REPORT_LINK_EXPIRED.code]);

export type Visit =
  | { state: 'loading' }
  | { state: 'preparing' }
  | { state: 'ended'; organizationName: string | null }
  | { state: 'failed' }
  | { state: 'locked'; view: ShareView }
  | { state: 'open'; view: ShareView };

/**
 * Opens a share once per page (every opening is a view in the sharer's access log), with the password sign this
 * browser remembers; a resource still being prepared is asked for again until it is ready. `reopen` asks again (after
 * the password was passed, or a failure).
 */
export function useShareVisit(
  code: string,
  { retryMs = PREPARING_RETRY_MS, tries = PREPARING_TRIES } = {},
): { visit: Visit; reopen: () => void } {
  const [visit, setVisit] = useState<Visit>(code ? { state: 'loading' } : { state: 'ended', organizationName: null });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!code) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = async (n: number) => {
      const sign = shareSign(code);
      try {
        const view = await openShare(code, sign);
        if (!live) return;
        // A remembered sign the share no longer takes (it changed): the password is asked for again.
        if (view.locked && sign) forgetShareSign(code);
        setVisit(view.locked ? { state: 'locked', view } : { state: 'open', view });
      } catch (err) {
        if (!live) return;
        if (err instanceof ApiError && err.code === ERRORS.RESOURCE_PREPARING.code && n < tries) {
          setVisit({ state: 'preparing' });
          timer = setTimeout(() => void attempt(n + 1), retryMs);
        } else if (err instanceof ApiError && ENDED_CODES.has(err.code)) {
          forgetShareSign(code);
          const data = err.data as { organizationName?: string | null } | null;
          setVisit({ state: 'ended', organizationName: data?.organizationName ?? null });
        } else {
          setVisit({ state: 'failed' });
        }
      }
    };
    setVisit({ state: 'loading' });
    void attempt(1);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [code, round, retryMs, tries]);
  return { visit, reopen: () => setRound((n) => n + 1) };
}
