import { useEffect, useMemo } from 'react';
import ConfigProvider from 'antd/es/config-provider';
import antdTheme from 'antd/es/theme';
import antdEnglish from 'antd/es/locale/en_US';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { IdentityPromptHost } from '../components/IdentityPromptHost';
import { queryClient } from '../lib/queryClient';
import { NotifierHost } from '../components/NotifierHost';
import { useLocale } from '../lib/i18n';
import { useTheme } from '../lib/theme';
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

export function App() {
  const { effective } = useTheme();
  const { antd } = useLocale();
  return (
    <ConfigProvider
      // Always a locale: ConfigProvider wraps its children in a locale provider only when given one, so switching
      // from English (antd's default) to another language would otherwise remount the whole page.
      locale={antd ?? antdEnglish}
      theme={{
        algorithm: effective === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
        token: { colorPrimary: '#1677ff', borderRadius: 6 },
      }}
    >
      <NotifierHost />
      <QueryClientProvider client={queryClient}>
        <Router />
        <IdentityPromptHost />
      </QueryClientProvider>
    </ConfigProvider>
  );
}
