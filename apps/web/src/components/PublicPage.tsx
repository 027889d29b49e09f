import type { ReactNode } from 'react';
import { LangSwitch } from './LangSwitch';
import { ThemeSwitch } from './ThemeSwitch';
import { useAppConfig } from '../lib/appConfig';

/** The frame of the no-token screens: a centred card with the language and theme switches. */
export function PublicPage({
  title,
  children,
  width = 420,
}: {
  title?: ReactNode;
  children: ReactNode;
  width?: number;
}) {
  const cfg = useAppConfig();
  return (
    <div className="public-page">
      <div className="public-toolbar">
        <LangSwitch />
        <ThemeSwitch />
      </div>
      <div className="public-brand">{cfg.appName}</div>
      {/* A plain panel: antd's Card would bring Tabs and Skeleton into the login bundle. */}
      <section className="public-card" style={{ maxWidth: width }}>
        {title ? <h1 className="public-card-title">{title}</h1> : null}
        <div className="public-card-body">{children}</div>
      </section>
      {cfg.copyright ? <div className="public-footer">{cfg.copyright}</div> : null}
    </div>
  );
}
