import { useEffect, useMemo } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { IdentityPromptHost } from '../components/IdentityPromptHost';
import { queryClient } from '../lib/queryClient';
import { NotifierHost } from '../components/NotifierHost';
import { useSession } from '../lib/session';
import { buildRoutes } from './routes';

function Router() {
  const { menus, signedIn, epoch } = useSession();
  // A new router per session state: routes exist only for what the current menu allows.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const router = useMemo(() => createBrowserRouter(buildRoutes(menus, signedIn)), [menus, signedIn, epoch]);
  useEffect(() => () => router.dispose(), [router]);
  return <RouterProvider router={router} />;
}

/** antd's theme is not set here: screens bring it with their code (components/AntdTheme), the login page none. */
export function App() {
  return (
    <>
      <NotifierHost />
      <QueryClientProvider client={queryClient}>
        <Router />
        <IdentityPromptHost />
      </QueryClientProvider>
    </>
  );
}
