import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';

const EXCLUDED = ['/report-preview-main'];

/** A thin bar at the top while the router loads the next screen. */
export function TopProgress() {
  const navigation = useNavigation();
  const target = navigation.location?.pathname ?? '';
  const active = navigation.state !== 'idle' && !EXCLUDED.includes(target);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (active) {
      // Short transitions would only flicker.
      const timer = setTimeout(() => setVisible(true), 120);
      return () => clearTimeout(timer);
    }
    setVisible(false);
    return undefined;
  }, [active]);
  return visible ? <div className="top-progress" data-testid="top-progress" /> : null;
}
