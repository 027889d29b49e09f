import { useEffect, useState } from 'react';
import { Button, Descriptions, Spin, Tag } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES } from '@portal/contracts';
import { PublicPage } from '../../../components/PublicPage';
import { formatDateTime } from '../../../lib/dates';
import { useLocale } from '../../../lib/i18n';
import { checkGraphics, measureDownload, measureUpload, type GraphicsCheck, type SpeedResult } from '../lib/checks';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['systemCheck'];

type Speed = { state: 'idle' | 'running' } | { state: 'done'; result: SpeedResult } | { state: 'failed' };
const TIMEZONE = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
})();

/**
 * `/system-check` (the spec's test page): whether this browser can show the 3D viewer, the speed to this server, and
 * the time, language and timezone the portal uses here. No sign-in needed.
 */
export default function SystemCheckPage() {
  const { t } = useTranslation('systemCheck');
  const { lang } = useLocale();
  const [graphics, setGraphics] = useState<GraphicsCheck | null>(null);
  const [down, setDown] = useState<Speed>({ state: 'idle' });
  const [up, setUp] = useState<Speed>({ state: 'idle' });
  const [now, setNow] = useState(() => new Date());

  useEffect(() => {
    void checkGraphics().then(setGraphics);
    const clock = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(clock);
  }, []);

  const runSpeed = async () => {
    setDown({ state: 'running' });
    setUp({ state: 'idle' });
    try {
      setDown({ state: 'done', result: await measureDownload() });
    } catch {
      setDown({ state: 'failed' });
    }
    setUp({ state: 'running' });
    try {
      setUp({ state: 'done', result: await measureUpload() });
    } catch {
      setUp({ state: 'failed' });
    }
  };

  const yesNo = (ok: boolean | undefined, testId: string) =>
    ok === undefined ? (
      <Spin size="small" />
    ) : (
      <Tag color={ok ? 'green' : 'red'} data-testid={testId} data-ok={ok}>
        {ok ? t('yes') : t('no')}
      </Tag>
    );
  const speed = (s: Speed, testId: string) => (
    <span data-testid={testId} data-state={s.state} data-mbps={s.state === 'done' ? s.result.mbps : undefined}>
      {s.state === 'done'
        ? t('mbps', { mbps: s.result.mbps, mb: (s.result.bytes / 1024 / 1024).toFixed(0), ms: s.result.ms })
        : s.state === 'running'
          ? t('measuring')
          : s.state === 'failed'
            ? t('failed')
            : '—'}
    </span>
  );
  const ready3d = graphics ? graphics.webgl2 && graphics.transferToWorker && graphics.workerWebgl2 : undefined;
  const running = down.state === 'running' || up.state === 'running';

  return (
    <PublicPage title={t('title')} width={640}>
      <p>{t('intro')}</p>
      <Descriptions column={1} bordered size="small" title={t('graphics')} data-testid="system-check-graphics">
        <Descriptions.Item label={t('webgl2')}>{yesNo(graphics?.webgl2, 'check-webgl2')}</Descriptions.Item>
        <Descriptions.Item label={t('offscreen')}>
          {yesNo(graphics ? graphics.transferToWorker && graphics.workerWebgl2 : undefined, 'check-offscreen')}
        </Descriptions.Item>
        <Descriptions.Item label={t('renderer')}>{graphics?.renderer ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('verdict')}>
          {ready3d === undefined ? (
            <Spin size="small" />
          ) : (
            <strong data-testid="check-3d" data-ok={ready3d}>
              {ready3d ? t('ready3d') : t('notReady3d')}
            </strong>
          )}
        </Descriptions.Item>
      </Descriptions>
      <Descriptions
        column={1}
        bordered
        size="small"
        title={t('speed')}
        style={{ marginTop: 16 }}
        data-testid="system-check-speed"
        extra={
          <Button onClick={() => void runSpeed()} loading={running} data-testid="check-speed-run">
            {down.state === 'idle' ? t('measure') : t('again')}
          </Button>
        }
      >
        <Descriptions.Item label={t('download')}>{speed(down, 'check-download')}</Descriptions.Item>
        <Descriptions.Item label={t('upload')}>{speed(up, 'check-upload')}</Descriptions.Item>
      </Descriptions>
      <Descriptions column={1} bordered size="small" title={t('settings')} style={{ marginTop: 16 }}>
        <Descriptions.Item label={t('time')}>
          <span data-testid="check-time">{formatDateTime(now.toISOString())}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('language')}>
          <span data-testid="check-language">{LANGUAGE_NAMES[lang]}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('timezone')}>
          <span data-testid="check-timezone">{TIMEZONE}</span>
        </Descriptions.Item>
      </Descriptions>
      <p style={{ marginTop: 12 }}>{t('settingsHint')}</p>
      <div className="public-links">
        <Link to="/" data-testid="system-check-back">
          {t('back')}
        </Link>
      </div>
    </PublicPage>
  );
}
