import { useEffect, useState } from 'react';
import { BREAKPOINTS } from '@portal/contracts';

export function isMobileUserAgent(ua = navigator.userAgent): boolean {
  return /Android|iPhone|iPad|iPod|Mobile|webOS|BlackBerry|IEMobile|Opera Mini/i.test(ua);
}

export function isCoarsePointer(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
}

export function isInternetExplorer(ua = navigator.userAgent): boolean {
  return /MSIE |Trident\//.test(ua);
}

export interface Viewport {
  width: number;
  /** Below the small-tablet breakpoint the sidebar becomes a drawer. */
  compact: boolean;
  phone: boolean;
  mobile: boolean;
}

function measure(): Viewport {
  const width = window.innerWidth;
  const mobile = isMobileUserAgent() || isCoarsePointer();
  return { width, compact: width < BREAKPOINTS.smallTablet, phone: width < BREAKPOINTS.phone, mobile };
}

export function useViewport(): Viewport {
  const [vp, setVp] = useState(measure);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setVp(measure()), 100);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return vp;
}
