import { Suspense, useEffect, useState } from 'react';
import { lazyThemed } from './lazyThemed';
import { registerHost } from './identity';

const IdentityPrompt = lazyThemed(() => import('./IdentityPrompt'));

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
