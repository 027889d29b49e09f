/**
 * Runs `fn` once a dialog opened with useBackClose has removed its history entry (the close calls
 * history.back(), which completes asynchronously). Navigating before that would be undone by the back step, so the
 * wait is for the popstate itself; the time limit only covers a back step that never comes, and is long because a
 * busy browser can take over a second to deliver it.
 */
export function afterDialogClosed(fn: () => void, timeoutMs = 5000): void {
  const state = window.history.state as { portalModal?: string } | null;
  if (!state?.portalModal) {
    fn();
    return;
  }
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    window.removeEventListener('popstate', run);
    // Let the router handle the same popstate first.
    setTimeout(fn, 0);
  };
  window.addEventListener('popstate', run);
  setTimeout(run, timeoutMs);
}
