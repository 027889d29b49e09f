import type { ComponentType } from 'react';
import { lazyChunk } from '../lib/lazyChunk';

/** antd's theme, as code loaded with the first screen or dialog that needs it (not with the login page). */
export const loadAntdTheme = () => import('./AntdTheme');

/** React.lazy for a component drawn inside antd's theme; the theme's code comes with it. */
export function lazyThemed<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazyChunk(() =>
    Promise.all([load(), loadAntdTheme()]).then(([m, theme]) => ({ default: theme.withAntdTheme(m.default) })),
  );
}
