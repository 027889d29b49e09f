import { lazy, Suspense, useEffect, useState } from 'react';
import { registerHost } from './identity';

const IdentityPrompt = lazy(() => import('./IdentityPrompt'));

export function IdentityPromptHost() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    registerHost(() => setMounted(true));
    return () => registerHost(null);
  }, []);
  return mounted ? (
    <Suspense fallback={null}>
      <IdentityPrompt />
    </Suspense>
  ) : null;
}
