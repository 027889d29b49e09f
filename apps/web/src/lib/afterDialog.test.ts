// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterDialogClosed } from './afterDialog';

afterEach(() => {
  vi.useRealTimers();
  window.history.replaceState(null, '');
});

describe('afterDialogClosed', () => {
  it('runs at once when no dialog holds a history entry', () => {
    const fn = vi.fn();
    afterDialogClosed(fn);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("waits for the dialog's back step, however slow, and runs once", () => {
    vi.useFakeTimers();
    window.history.replaceState({ portalModal: 'send' }, '');
    const fn = vi.fn();
    afterDialogClosed(fn);
    // A busy browser: the back step has not arrived after a second and a half.
    vi.advanceTimersByTime(1500);
    expect(fn).not.toHaveBeenCalled();
    window.dispatchEvent(new PopStateEvent('popstate'));
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('still runs when the back step never comes', () => {
    vi.useFakeTimers();
    window.history.replaceState({ portalModal: 'send' }, '');
    const fn = vi.fn();
    afterDialogClosed(fn);
    vi.advanceTimersByTime(5001);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
