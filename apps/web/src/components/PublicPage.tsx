import type { ReactNode } from 'react';
import { Card } from 'antd';
import { LangSwitch } from './LangSwitch';
import { ThemeSwitch } from './ThemeSwitch';
import { useAppConfig } from '../lib/appConfig';

/** The frame of the no-token screens: a centred card with the language and theme switches. */
export function PublicPage({ title, children, width = 420 }: { title?: ReactNode; children: ReactNode; width?: number }) {
  const cfg = useAppConfig();
  return (
    <div className="public-page">
      <div className="public-toolbar">
        <LangSwitch />
        <ThemeSwitch />
      </div>
      <div className="public-brand">{cfg.appName}</div>
      <Card className="public-card" style={{ maxWidth: width }} title={title}>
        {children}
      </Card>
      {cfg.copyright ? <div className="public-footer">{cfg.copyright}</div> : null}
    </div>
  );
}
