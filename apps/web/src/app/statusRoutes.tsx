import { Suspense } from 'react';
import { lazyThemed } from '../components/lazyThemed';
import { lazyPage } from './lazyPage';

const load = () => import('../components/StatusPages');
// Inside the signed-in layout, whose theme it shares.
export const noPermissionLazy = lazyPage(() => load().then((m) => ({ default: m.NoPermission })), 'layout');
export const notFoundLazy = lazyPage(() => load().then((m) => ({ default: m.NotFound })));

const NotFoundComponent = lazyThemed<object>(() => load().then((m) => ({ default: m.NotFound })));
export function LazyNotFound() {
  return (
    <Suspense fallback={null}>
      <NotFoundComponent />
    </Suspense>
  );
}
