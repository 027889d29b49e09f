import { useEffect, useRef } from 'react';
import notification from 'antd/es/notification';
import BellOutlined from '@ant-design/icons/BellOutlined';
import type { SysMsg } from '@portal/contracts';
import { useOpenNotification } from '../api/useOpenNotification';

/** How long a new notification stays on screen (spec §9: 3000 ms). */
export const POPUP_SECONDS = 3;

/**
 * Lazy-loaded: pops up a notification (title and content) for POPUP_SECONDS; clicking it opens its order.
 * Uses the hook API so the pop-up follows the app's theme.
 */
export default function NotificationPopup({ msg }: { msg: SysMsg }) {
  const [api, holder] = notification.useNotification({ placement: 'topRight', maxCount: 3 });
  const openMsg = useOpenNotification();
  const openRef = useRef(openMsg);
  openRef.current = openMsg;

  // Opened once per notification: re-renders (a drawer opening, a theme change) must not restart its timer.
  const shown = useRef<number | null>(null);
  useEffect(() => {
    if (shown.current === msg.id) return;
    shown.current = msg.id;
    const key = `sys-msg-${msg.id}`;
    api.open({
      key,
      title: msg.title,
      description: msg.content,
      icon: <BellOutlined aria-hidden style={{ color: 'var(--ant-color-primary, #1677ff)' }} />,
      duration: POPUP_SECONDS,
      // Exactly the configured time, hovered or not.
      pauseOnHover: false,
      role: 'status',
      style: { cursor: 'pointer' },
      props: { 'data-testid': 'notification-popup' },
      onClick: () => {
        api.destroy(key);
        void openRef.current(msg);
      },
    });
  }, [api, msg]);

  return <>{holder}</>;
}
