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

/**
 * The light theme's colours, darker than antd's defaults where those miss the 4.5:1 contrast WCAG AA asks of text:
 * the primary blue and links (white on them, and they on their pale tint: 4.1 and 3.7 with #1677ff), secondary and
 * description text and labels (3.4 at 45% black), placeholders and empty-state text (1.8 at 25% black), danger buttons' red (3.3). Disabled
 * controls keep antd's grey.
 */
const LIGHT_TOKENS = {
  colorPrimary: '#0958d9',
  colorInfo: '#0958d9',
  colorLink: '#0958d9',
  colorError: '#cf1322',
  colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
  colorTextTertiary: 'rgba(0, 0, 0, 0.65)',
  colorTextQuaternary: 'rgba(0, 0, 0, 0.56)',
  colorTextDescription: 'rgba(0, 0, 0, 0.65)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
  borderRadius: 6,
};

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
        token: effective === 'dark' ? { colorPrimary: '#1677ff', borderRadius: 6 } : LIGHT_TOKENS,
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
