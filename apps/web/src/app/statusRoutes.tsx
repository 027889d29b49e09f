import { lazy, Suspense } from 'react';
import { lazyPage } from './lazyPage';

const load = () => import('../components/StatusPages');
export const noPermissionLazy = lazyPage(() => load().then((m) => ({ default: m.NoPermission })));
export const notFoundLazy = lazyPage(() => load().then((m) => ({ default: m.NotFound })));

const NotFoundComponent = lazy(() => load().then((m) => ({ default: m.NotFound })));
export function LazyNotFound() {
  return (
    <Suspense fallback={null}>
      <NotFoundComponent />
    </Suspense>
  );
}
