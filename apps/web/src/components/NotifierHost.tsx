import { lazy, Suspense, useEffect, useState } from 'react';
import { registerNotifierHost } from '../lib/notify';

const NotifierBridge = lazy(() => import('./NotifierBridge'));

export function NotifierHost() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    registerNotifierHost(() => setMounted(true));
    return () => registerNotifierHost(null);
  }, []);
  return mounted ? (
    <Suspense fallback={null}>
      <NotifierBridge />
    </Suspense>
  ) : null;
}
