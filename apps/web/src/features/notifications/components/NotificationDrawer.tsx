import { useEffect, useState } from 'react';
import { Badge, Button, Drawer, Empty, Pagination, Space, Spin, Switch, Tabs, Tag, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SysMsg } from '@portal/contracts';
import { useViewport } from '../../../lib/device';
import { useBackClose } from '../../../lib/useBackClose';
import { notify } from '../../../lib/notify';
import {
  listSysMsgQuery,
  MSG_TYPES,
  SYS_MSG_TABS,
  type SysMsgList,
  type SysMsgQuery,
  type SysMsgTab,
} from '../api/listSysMsg';
import { useOpenNotification, useReadMsg } from '../api/useOpenNotification';
import { formatDateTime } from '../../../lib/dates';
import { usePageInRange } from '../../../lib/listState';

const PAGE_SIZE = 20;
const TYPE_COLORS: Record<number, string> = { [MSG_TYPES.orderMessage]: 'blue', [MSG_TYPES.workOrder]: 'purple' };

/** The count a tab shows: one type's, or all of them together. */
export function tabCount(counts: SysMsgList['counts'] | undefined, tab: SysMsgTab): number | null {
  if (!counts) return null;
  if (tab === 'all') return counts.reduce((sum, c) => sum + c.count, 0);
  return counts.find((c) => c.msgType === tab)?.count ?? 0;
}

interface Props {
  open: boolean;
  /** Unread notifications in all, from the header's poll. */
  unread: number;
  onClose: () => void;
}

/** Lazy-loaded: the notification list with its type tabs, unread marks and "mark all read". */
export default function NotificationDrawer({ open, unread, onClose }: Props) {
  const { t } = useTranslation('notifications');
  const { token } = theme.useToken();
  const vp = useViewport();
  const [tab, setTab] = useState<SysMsgTab>('all');
  const [pageNum, setPageNum] = useState(1);
  const [unreadOnly, setUnreadOnly] = useState(false);
  useBackClose(open, onClose);
  useEffect(() => setPageNum(1), [tab, unreadOnly]);

  const query: SysMsgQuery = {
    pageNum,
    pageSize: PAGE_SIZE,
    ...(tab === 'all' ? {} : { msgType: tab }),
    ...(unreadOnly ? { unreadOnly: true } : {}),
  };
  const list = useQuery({ ...listSysMsgQuery(query), enabled: open });
  // Unread only: reading the last page's messages empties it (and with one page left, the pager is gone).
  usePageInRange(query, list, setPageNum);
  const readAll = useReadMsg(() => notify.success(t('allRead')));
  const openMsg = useOpenNotification();
  // The drawer closes once the order page is there, so its back-button entry is left alone.
  const onOpenMsg = (msg: SysMsg) => void openMsg(msg).finally(onClose);
  const counts = list.data?.counts;
  const items = list.data?.list ?? [];

  const tabLabel = (key: SysMsgTab) => {
    const n = tabCount(counts, key);
    const name =
      key === 'all' ? t('tabs.all') : key === MSG_TYPES.orderMessage ? t('tabs.orderMessages') : t('tabs.workOrders');
    return (
      <span data-testid={`notification-tab-${key}`}>
        {name}
        {n !== null ? <span data-testid={`notification-tab-count-${key}`}> ({n})</span> : null}
      </span>
    );
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="right"
      size={vp.phone ? vp.width : 420}
      title={t('title')}
      extra={
        <Button
          size="small"
          data-testid="notification-read-all"
          disabled={unread === 0 && !items.some((m) => !m.read)}
          loading={readAll.isPending}
          onClick={() => readAll.mutate({})}
        >
          {t('readAll')}
        </Button>
      }
      styles={{ body: { paddingTop: 0 } }}
    >
      <div data-testid="notification-drawer">
        <Tabs
          activeKey={String(tab)}
          onChange={(key) => setTab(key === 'all' ? 'all' : (Number(key) as 2 | 5))}
          items={SYS_MSG_TABS.map((key) => ({ key: String(key), label: tabLabel(key) }))}
          tabBarExtraContent={
            <Space size={6}>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('unreadOnly')}
              </Typography.Text>
              <Switch
                size="small"
                checked={unreadOnly}
                onChange={setUnreadOnly}
                data-testid="notification-unread-only"
              />
            </Space>
          }
        />
        <Spin spinning={list.isFetching && !list.data}>
          {items.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={list.isFetching ? ' ' : t('empty')} />
          ) : (
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {items.map((msg) => (
                <li key={msg.id} style={{ borderBottom: `1px solid ${token.colorSplit}` }}>
                  <button
                    type="button"
                    data-testid="notification-item"
                    data-id={msg.id}
                    data-read={msg.read ? 'true' : 'false'}
                    aria-label={msg.read ? msg.title : t('unreadItem', { title: msg.title })}
                    onClick={() => onOpenMsg(msg)}
                    style={{
                      display: 'block',
                      width: '100%',
                      textAlign: 'start',
                      border: 0,
                      cursor: 'pointer',
                      padding: '10px 8px',
                      color: 'inherit',
                      font: 'inherit',
                      background: msg.read ? 'transparent' : token.colorPrimaryBg,
                    }}
                  >
                    <Space align="start" size={8} style={{ width: '100%' }}>
                      <Badge status={msg.read ? 'default' : 'processing'} />
                      <div style={{ minWidth: 0 }}>
                        <div style={{ fontWeight: msg.read ? 400 : 600 }}>{msg.title}</div>
                        <div
                          style={{ color: token.colorTextSecondary, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
                        >
                          {msg.content}
                        </div>
                        <Space size={8} style={{ marginTop: 4 }}>
                          <Tag color={TYPE_COLORS[msg.msgType] ?? 'default'} style={{ marginInlineEnd: 0 }}>
                            {msg.msgType === MSG_TYPES.orderMessage
                              ? t('type.orderMessage')
                              : msg.msgType === MSG_TYPES.workOrder
                                ? t('type.workOrder')
                                : msg.msgType}
                          </Tag>
                          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                            {msg.code} · {formatDateTime(msg.createdAt)}
                          </Typography.Text>
                        </Space>
                      </div>
                    </Space>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Spin>
        {(list.data?.total ?? 0) > PAGE_SIZE ? (
          <Pagination
            size="small"
            style={{ marginTop: 12, textAlign: 'center' }}
            current={pageNum}
            pageSize={PAGE_SIZE}
            total={list.data?.total ?? 0}
            showSizeChanger={false}
            onChange={setPageNum}
          />
        ) : null}
      </div>
    </Drawer>
  );
}
