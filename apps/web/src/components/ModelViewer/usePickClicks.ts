import { useEffect, useRef } from 'react';
import type { PickHit, ViewerEngine } from './engine';
import { isClick } from './measure';

/**
 * While `enabled`, a click (not a drag, which still turns the model) on the canvas asks the renderer what scan lies
 * under it; `onHit` hears the answer (null: nothing there).
 */
export function usePickClicks(
  engine: ViewerEngine | undefined,
  host: HTMLElement | null,
  enabled: boolean,
  onHit: (hit: PickHit | null) => void,
) {
  const onHitRef = useRef(onHit);
  onHitRef.current = onHit;
  useEffect(() => {
    const canvas = host?.querySelector('canvas');
    if (!engine || !enabled || !canvas) return;
    let down: { x: number; y: number } | null = null;
    const press = (e: PointerEvent) => {
      down = e.isPrimary && e.button === 0 ? { x: e.clientX, y: e.clientY } : null;
    };
    const release = (e: PointerEvent) => {
      if (!down || !isClick(down, { x: e.clientX, y: e.clientY })) return;
      down = null;
      void engine.pick(e.clientX, e.clientY).then((hit) => onHitRef.current(hit));
    };
    canvas.addEventListener('pointerdown', press);
    canvas.addEventListener('pointerup', release);
    return () => {
      canvas.removeEventListener('pointerdown', press);
      canvas.removeEventListener('pointerup', release);
    };
  }, [engine, host, enabled]);
}
