// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERRORS } from '@portal/contracts';
import { ApiError } from '../../../lib/http';
import { rememberShareSign, shareSign } from '../../../lib/prefs';
import '../../../test/dom-shims';
import { cleanup, mount } from '../../../test/render';
import { waitFor } from '../../../test/dom';
import { openShare, type ShareView } from '../api/shares';
import { useShareVisit, type Visit } from './useShareVisit';

// The hook's rules, without a server: what share/open answers is decided per test.
vi.mock('../api/shares', () => ({ openShare: vi.fn(), unlockShare: vi.fn() }));
const open = vi.mocked(openShare);

const view = (locked: boolean) => ({ locked, version: 1, organizationName: 'Smile Clinic' }) as unknown as ShareView;
const refusal = (e: { code: number; status: number; key: string }, data: unknown = null) =>
  new ApiError(e.code, e.key, data, e.status);

let seen: Visit[] = [];
let reopen: () => void = () => {};
function Probe({ code, tries = 5 }: { code: string; tries?: number }) {
  const visit = useShareVisit(code, { retryMs: 5, tries });
  seen.push(visit.visit);
  reopen = visit.reopen;
  return null;
}
const last = () => seen.at(-1)!;

beforeEach(() => {
  seen = [];
  open.mockReset();
  localStorage.clear();
});
afterEach(cleanup);

describe('a share visit', () => {
  it('waits while the resource is prepared (2007), then shows it, opening it once more per try', async () => {
    open
      .mockRejectedValueOnce(refusal(ERRORS.RESOURCE_PREPARING))
      .mockRejectedValueOnce(refusal(ERRORS.RESOURCE_PREPARING))
      .mockResolvedValueOnce(view(false));
    await mount(<Probe code="abc" />);
    await waitFor(() => last().state === 'open');
    expect(seen.map((v) => v.state)).toContain('preparing');
    expect(open).toHaveBeenCalledTimes(3);
  });

  it('gives up after its tries and offers to try again, which opens it anew', async () => {
    open.mockRejectedValue(refusal(ERRORS.RESOURCE_PREPARING));
    await mount(<Probe code="abc" tries={3} />);
    await waitFor(() => last().state === 'failed');
    expect(open).toHaveBeenCalledTimes(3);
    open.mockReset().mockResolvedValue(view(true));
    reopen();
    await waitFor(() => last().state === 'locked');
  });

  it('names the sharer once the link has ended, and forgets the password this browser passed', async () => {
    rememberShareSign('abc', 1, 'signed');
    open.mockRejectedValue(refusal(ERRORS.LINK_EXPIRED, { organizationName: 'Smile Clinic' }));
    await mount(<Probe code="abc" />);
    await waitFor(() => last().state === 'ended');
    expect(last()).toEqual({ state: 'ended', organizationName: 'Smile Clinic' });
    expect(open).toHaveBeenCalledWith('abc', 'signed');
    expect(shareSign('abc')).toBeUndefined();
  });

  it('a report link ended answers 2009: the same page', async () => {
    open.mockRejectedValue(refusal(ERRORS.REPORT_LINK_EXPIRED, null));
    await mount(<Probe code="abc" />);
    await waitFor(() => last().state === 'ended');
    expect(last()).toEqual({ state: 'ended', organizationName: null });
  });

  it('asks for the password again when the share no longer takes the remembered one', async () => {
    rememberShareSign('abc', 1, 'old');
    open.mockResolvedValue(view(true));
    await mount(<Probe code="abc" />);
    await waitFor(() => last().state === 'locked');
    expect(shareSign('abc')).toBeUndefined();
  });

  it('without a code, the link is ended and nothing is asked', async () => {
    await mount(<Probe code="" />);
    expect(last()).toEqual({ state: 'ended', organizationName: null });
    expect(open).not.toHaveBeenCalled();
  });

  it('any other failure is a failure, not an ended link', async () => {
    open.mockRejectedValue(refusal(ERRORS.TOO_MANY_REQUESTS));
    await mount(<Probe code="abc" />);
    await waitFor(() => last().state === 'failed');
    expect(open).toHaveBeenCalledTimes(1);
  });
});
