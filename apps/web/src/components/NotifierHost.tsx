import { Suspense, useEffect, useState } from 'react';
import { lazyThemed } from './lazyThemed';
import { registerNotifierHost } from '../lib/notify';

const NotifierBridge = lazyThemed(() => import('./NotifierBridge'));

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
