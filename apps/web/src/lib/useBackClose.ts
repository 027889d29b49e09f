import { useEffect, useRef } from 'react';

/**
 * Lets the browser back button close a dialog: opening pushes a history entry (same URL),
 * a popstate closes the dialog; closing it otherwise removes the entry again.
 */
export function useBackClose(open: boolean, onClose: () => void) {
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (!open) return;
    const id = Math.random().toString(16).slice(2, 10);
    const base: unknown = window.history.state;
    window.history.pushState({ ...(base && typeof base === 'object' ? base : {}), portalModal: id }, '');
    let popped = false;
    const onPop = () => {
      popped = true;
      closeRef.current();
    };
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener('popstate', onPop);
      const state = window.history.state as { portalModal?: string } | null;
      if (!popped && state?.portalModal === id) window.history.back();
    };
  }, [open]);
}
