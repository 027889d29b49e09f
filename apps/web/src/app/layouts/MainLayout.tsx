import { useMemo, useState } from 'react';
import { Avatar, Button, Drawer, Dropdown, Layout, Menu } from 'antd';
import type { MenuProps } from 'antd';
import { Link, Outlet, useLocation, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import MenuOutlined from '@ant-design/icons/MenuOutlined';
import MenuFoldOutlined from '@ant-design/icons/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/MenuUnfoldOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import LogoutOutlined from '@ant-design/icons/LogoutOutlined';
import { BREAKPOINTS, OrgType, OWN_SPACE_MENU, type Language, type MenuItem } from '@portal/contracts';
import { NotificationBell } from '../../features/notifications/components/NotificationBell';
import { updateUser } from '../../features/ownSpace/api/updateUser';
import { UsageTracker, WhatsNewButton } from '../../features/whatsnew';
import { useLiveUpdates } from '../../features/live';
import { LangSwitch } from '../../components/LangSwitch';
import { ThemeSwitch } from '../../components/ThemeSwitch';
import { useAppConfig } from '../../lib/appConfig';
import { useViewport } from '../../lib/device';
import { logout, useSession } from '../../lib/session';
import { useBackClose } from '../../lib/useBackClose';
import type { RouteHandle } from '../routes';
import { MenuIcon } from './menuIcons';
import { Access } from '../../components/Access';

type AntItem = NonNullable<MenuProps['items']>[number];

/**
 * Sidebar entries: hidden items dropped; a group with one visible child shows it directly unless showAlways.
 * A screen whose children are all hidden (its detail screen, its buttons) is a plain entry.
 */
export function toItems(list: readonly MenuItem[], t: TFunction): AntItem[] {
  const out: AntItem[] = [];
  for (const item of list) {
    if (!item.showFlag) continue;
    const children = toItems(item.children, t);
    const label = t(item.name, { ns: 'layout', defaultValue: item.name });
    if (children.length > 0) {
      if (children.length === 1 && !item.showAlways && !item.component) {
        out.push(children[0]!);
        continue;
      }
      out.push({
        key: `group:${item.code}`,
        icon: <MenuIcon name={item.icon} />,
        label: <span data-testid={`menu-${item.code}`}>{label}</span>,
        children,
      });
    } else if (item.path) {
      out.push({
        key: item.path,
        icon: <MenuIcon name={item.icon} />,
        label: (
          <Link to={item.path} data-testid={`menu-${item.code}`}>
            {label}
          </Link>
        ),
      });
    }
  }
  return out;
}

function groupsOf(list: readonly MenuItem[], path: string, trail: string[] = []): string[] {
  for (const item of list) {
    if (item.path === path) return trail;
    const found = groupsOf(item.children, path, [...trail, `group:${item.code}`]);
    if (found.length) return found;
  }
  return [];
}

export default function MainLayout() {
  // The tab's live socket is open while the signed-in screens are shown.
  const live = useLiveUpdates();
  const { t } = useTranslation('layout');
  const cfg = useAppConfig();
  const { user, menus } = useSession();
  const vp = useViewport();
  const { pathname } = useLocation();
  const matches = useMatches();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  useBackClose(drawerOpen, () => setDrawerOpen(false));

  // Below 980 px, or a touch device narrower than a desktop, the sidebar becomes a drawer.
  const drawerMode = vp.compact || (vp.mobile && vp.width < BREAKPOINTS.tablet);
  const autoCollapsed = vp.width < BREAKPOINTS.tablet;
  const handle = (matches[matches.length - 1]?.handle ?? {}) as RouteHandle;
  const selected = handle.menuPath ?? pathname;
  const items = useMemo(() => toItems(menus ?? [], t), [menus, t]);
  const openKeys = useMemo(() => groupsOf(menus ?? [], selected), [menus, selected]);
  // Order notifications concern the two sides of an order: clinics and laboratories.
  const orgType = user?.organization.type;
  const showBell = orgType === OrgType.Clinic || orgType === OrgType.Lab;

  const menu = (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={[selected]}
      defaultOpenKeys={openKeys}
      onClick={() => setDrawerOpen(false)}
      className="side-menu"
    />
  );

  const userItems: MenuProps['items'] = [
    {
      key: 'own',
      icon: <UserOutlined aria-hidden />,
      label: (
        <Link to={OWN_SPACE_MENU.path ?? '/own-space'} data-testid="user-menu-own-space">
          {t('menu.ownSpace')}
        </Link>
      ),
    },
    { type: 'divider' },
    {
      key: 'logout',
      icon: <LogoutOutlined aria-hidden />,
      label: <span data-testid="logout">{t('logout')}</span>,
      onClick: () => void logout(),
    },
  ];

  return (
    <Layout className="main-layout">
      {drawerMode ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size={280}
          title={cfg.appName}
          styles={{ body: { padding: 0 } }}
        >
          <div data-testid="layout-sidebar">{menu}</div>
        </Drawer>
      ) : (
        <Layout.Sider
          data-testid="layout-sidebar"
          collapsible
          collapsed={collapsed || autoCollapsed}
          trigger={null}
          width={220}
          theme="light"
          className="side"
        >
          <div className="brand">{collapsed || autoCollapsed ? cfg.appName.slice(0, 1) : cfg.appName}</div>
          {menu}
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header className="header" data-testid="layout-header" data-live={live.connected ? 'up' : 'down'}>
          <Button
            type="text"
            aria-label={t('toggleMenu')}
            data-testid="menu-toggle"
            icon={
              drawerMode ? (
                <MenuOutlined aria-hidden />
              ) : collapsed ? (
                <MenuUnfoldOutlined aria-hidden />
              ) : (
                <MenuFoldOutlined aria-hidden />
              )
            }
            onClick={() => (drawerMode ? setDrawerOpen(true) : setCollapsed(!collapsed))}
          />
          <div className="header-spacer" />
          <UsageTracker />
          <WhatsNewButton />
          {/* The notifications are of orders: the server lists them to roles that read orders. */}
          {showBell ? (
            <Access permission="order:view">
              <NotificationBell />
            </Access>
          ) : null}
          {/* The account's language follows, so mails arrive in it too. */}
          <LangSwitch onChange={(lang) => void updateUser({ language: lang as Language }).catch(() => undefined)} />
          <ThemeSwitch />
          <Dropdown menu={{ items: userItems }} trigger={['click']} placement="bottomRight">
            <Button
              type="text"
              data-testid="user-menu"
              aria-label={vp.phone ? user?.displayName : undefined}
              icon={
                <Avatar
                  size="small"
                  src={user?.avatar ?? undefined}
                  icon={<UserOutlined aria-hidden />}
                  alt=""
                  data-testid="header-avatar"
                />
              }
            >
              {vp.phone ? null : user?.displayName}
            </Button>
          </Dropdown>
        </Layout.Header>
        <Layout.Content className="content">
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
