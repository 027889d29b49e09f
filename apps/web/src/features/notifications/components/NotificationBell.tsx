import { Suspense, useEffect, useRef, useState } from 'react';
import { Button, theme } from 'antd';
import BellOutlined from '@ant-design/icons/BellOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SysMsg } from '@portal/contracts';
import { unreadCountQuery, type UnreadSummary } from '../api/unreadCount';
import { useNotificationArrived } from '../api/useNotificationArrived';
import { nextPopup, notificationArrived } from '../lib/latest';
import { lazyChunk } from '../../../lib/lazyChunk';

// Kept out of the layout chunk: the drawer loads on the first click, the pop-up on the first new notification.
const NotificationDrawer = lazyChunk(() => import('./NotificationDrawer'));
const NotificationPopup = lazyChunk(() => import('./NotificationPopup'));

const COUNT_RED = '#cf1322';

/**
 * The header bell (clinic and laboratory users): the unread count, asked again on each live `notification` event
 * (polled every 1.5 s while the tab is visible and the socket is down) and on focus; a pop-up for each notification newer than the last one this tab saw; the
 * notification drawer on click. A new notification means the other side moved an order: every order, case
 * and dashboard query is fetched again (what is on screen at once).
 */
export function NotificationBell() {
  const { t } = useTranslation('notifications');
  const { token } = theme.useToken();
  const arrived = useNotificationArrived();
  const summary = useQuery(unreadCountQuery());
  const [open, setOpen] = useState(false);
  const [drawerLoaded, setDrawerLoaded] = useState(false);
  const [popup, setPopup] = useState<SysMsg | null>(null);
  const seen = useRef<number | null>(null);
  const previous = useRef<UnreadSummary | undefined>(undefined);

  useEffect(() => {
    if (!summary.data) return;
    // Every order, its case, the dashboard and the notification lists are fetched again.
    if (notificationArrived(previous.current, summary.data)) arrived();
    previous.current = summary.data;
    const next = nextPopup(seen.current, summary.data.latest);
    seen.current = next.seen;
    if (next.popup) setPopup(next.popup);
  }, [summary.data, arrived]);

  const total = summary.data?.total ?? 0;

  return (
    <>
      <span style={{ position: 'relative', display: 'inline-flex' }}>
        <Button
          type="text"
          icon={<BellOutlined aria-hidden />}
          aria-label={t('bellLabel', { n: total })}
          title={t('title')}
          data-testid="notification-bell"
          onClick={() => {
            setDrawerLoaded(true);
            setOpen(true);
          }}
        />
        {total > 0 ? (
          <span
            data-testid="notification-count"
            data-count={total}
            aria-hidden
            style={{
              position: 'absolute',
              top: -2,
              insetInlineEnd: -4,
              minWidth: 18,
              height: 18,
              padding: '0 5px',
              borderRadius: 9,
              // The same dark red in both themes: white counts read 5.6:1 on it (the dark theme's lighter red only 3.4).
              background: COUNT_RED,
              color: '#fff',
              fontSize: 11,
              fontWeight: 600,
              lineHeight: '18px',
              textAlign: 'center',
              pointerEvents: 'none',
              boxShadow: `0 0 0 1px ${token.colorBgContainer}`,
            }}
          >
            {total > 99 ? '99+' : total}
          </span>
        ) : null}
      </span>
      {drawerLoaded ? (
        <Suspense fallback={null}>
          <NotificationDrawer open={open} unread={total} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
      {popup ? (
        <Suspense fallback={null}>
          <NotificationPopup msg={popup} />
        </Suspense>
      ) : null}
    </>
  );
}
