import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Slider } from 'antd';
import { AimOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ViewerEngine } from './engine';
import { formatMillimetres } from './measure';
import { planeRange } from './section';
import type { Point3, SectionPlane } from './types';

/**
 * The cross-section tool: a plane facing the reader (as the view was when the tool opened, or when aligned again)
 * cuts the scans; the slider moves it through them, the near side is clipped away and the profile drawn where the
 * scans cross it. Turning the model shows the profile from the side.
 */
export function SectionPanel({ engine }: { engine: ViewerEngine }) {
  const { t, i18n } = useTranslation('common');
  const [plane, setPlane] = useState<{ normal: Point3; range: [number, number] } | null>(null);
  const [offset, setOffset] = useState(0);
  const [profile, setProfile] = useState<{ segments: number; length: number } | null>(null);

  const align = useCallback(() => {
    const box = engine.visibleBounds();
    if (!box) return;
    const normal = engine.viewDirection();
    const range = planeRange(box, normal);
    setPlane({ normal, range });
    setOffset((range[0] + range[1]) / 2);
  }, [engine]);
  useEffect(align, [align]);

  // One section in the renderer at a time: a slider drag sends the latest position once the last profile is back.
  const wanted = useRef<SectionPlane | null>(null);
  const busy = useRef(false);
  const send = useCallback(() => {
    if (busy.current || !wanted.current) return;
    busy.current = true;
    engine.setSection(wanted.current);
    wanted.current = null;
  }, [engine]);
  useEffect(() => {
    engine.onSection = (p) => {
      busy.current = false;
      setProfile(p);
      send();
    };
    return () => {
      engine.onSection = null;
      engine.setSection(null);
    };
  }, [engine, send]);
  useEffect(() => {
    if (!plane) return;
    wanted.current = { normal: plane.normal, offset };
    send();
  }, [plane, offset, send]);

  if (!plane) return null;
  const [lo, hi] = plane.range;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 12 }} data-testid="viewer-section">
      <span id="viewer-section-label">{t('viewer.sectionPosition')}</span>
      <Slider
        style={{ flex: '1 1 200px', minWidth: 160 }}
        min={Math.floor(lo * 10) / 10}
        max={Math.ceil(hi * 10) / 10}
        step={0.1}
        value={offset}
        onChange={(v) => setOffset(v)}
        tooltip={{ formatter: (v) => formatMillimetres((v ?? lo) - lo, i18n.language) }}
        ariaLabelledByForHandle="viewer-section-label"
        data-testid="viewer-section-slider"
      />
      <Button size="small" icon={<AimOutlined aria-hidden />} onClick={align} data-testid="viewer-section-align">
        {t('viewer.alignToView')}
      </Button>
      <span
        role="status"
        data-testid="viewer-section-profile"
        data-segments={profile?.segments ?? 0}
        data-mm={(profile?.length ?? 0).toFixed(3)}
      >
        {profile && profile.segments > 0
          ? `${t('viewer.profile')}: ${formatMillimetres(profile.length, i18n.language)}`
          : t('viewer.noProfile')}
      </span>
    </div>
  );
}
