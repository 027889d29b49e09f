import type { ComponentType, ReactNode } from 'react';
import ConfigProvider from 'antd/es/config-provider';
import antdTheme from 'antd/es/theme';
import antdEnglish from 'antd/es/locale/en_US';
import { useLocale } from '../lib/i18n';
import { useTheme } from '../lib/theme';

/**
 * The light theme's colours, darker than antd's defaults where those miss the 4.5:1 contrast WCAG AA asks of text:
 * the primary blue and links (white on them, and they on their pale tint: 4.1 and 3.7 with #1677ff), secondary and
 * description text and labels (3.4 at 45% black), placeholders and empty-state text (1.8 at 25% black), danger
 * buttons' red (3.3). Disabled controls keep antd's grey. The antd-free controls of base.css use the same colours.
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

/**
 * The dark theme's colours. antd's dark primary (#1668dc) reads at 3.5:1 on the page and 2.5:1 on a selected menu
 * item: text in the primary colour (links, the selected menu item and tab) takes a lighter blue, while solid primary
 * buttons keep theirs (white on it: 5.2). The red is a seed the dark algorithm darkens (antd's own reads 4.3:1).
 * Secondary, description and placeholder text as in the light theme.
 */
const DARK_TEXT_BLUE = '#69b1ff';
const DARK_TOKENS = {
  colorPrimary: '#1677ff',
  colorLink: DARK_TEXT_BLUE,
  colorLinkHover: '#8dc5f8',
  colorLinkActive: '#4096ff',
  colorError: '#ff7875',
  colorTextSecondary: 'rgba(255, 255, 255, 0.65)',
  colorTextTertiary: 'rgba(255, 255, 255, 0.65)',
  colorTextQuaternary: 'rgba(255, 255, 255, 0.56)',
  colorTextDescription: 'rgba(255, 255, 255, 0.65)',
  colorTextPlaceholder: 'rgba(255, 255, 255, 0.56)',
  borderRadius: 6,
};
const DARK_COMPONENTS = {
  // White counts on a red badge need the darker red (5.6:1); the lighter one is for red text on the dark page.
  Badge: { colorError: '#cf1322' },
  Menu: { itemSelectedColor: DARK_TEXT_BLUE, subMenuItemSelectedColor: DARK_TEXT_BLUE },
  Tabs: { itemSelectedColor: DARK_TEXT_BLUE, itemActiveColor: DARK_TEXT_BLUE, itemHoverColor: '#8dc5f8' },
};

/**
 * antd's theme and locale for what it wraps. It is not around the whole app: the login page draws without antd (its
 * first load has a size budget), so each top-level screen, the signed-in layout and the lazily mounted hosts
 * (messages, dialogs) bring it with their own code.
 */
export function AntdTheme({ children }: { children: ReactNode }) {
  const { effective } = useTheme();
  const { antd } = useLocale();
  return (
    <ConfigProvider
      // Always a locale: ConfigProvider wraps its children in a locale provider only when given one, so switching
      // from English (antd's default) to another language would otherwise remount the whole page.
      locale={antd ?? antdEnglish}
      theme={{
        algorithm: effective === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
        token: effective === 'dark' ? DARK_TOKENS : LIGHT_TOKENS,
        components: effective === 'dark' ? DARK_COMPONENTS : undefined,
      }}
    >
      {children}
    </ConfigProvider>
  );
}

/** The component drawn inside antd's theme. */
export function withAntdTheme<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function Themed(props: P) {
    return (
      <AntdTheme>
        <Component {...props} />
      </AntdTheme>
    );
  }
  Themed.displayName = `Themed(${Component.displayName ?? Component.name})`;
  return Themed;
}
