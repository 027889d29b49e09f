import { Suspense } from 'react';
import { Col, Row, Spin, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { OrgType, Permission } from '@portal/contracts';
import { useSession } from '../../../lib/session';
import { useAccess } from '../../../components/Access';
import { AccountInfoCard } from '../components/AccountInfoCard';
import { OrganizationCard } from '../components/OrganizationCard';
import { ToothNumberingCard } from '../components/ToothNumberingCard';
import { ChangePasswordCard } from '../components/ChangePasswordCard';
import { ImprovementPlanCard } from '../../whatsnew';
import { lazyChunk } from '../../../lib/lazyChunk';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['account', 'company', 'catalogue', 'retention', 'webhooks', 'apps', 'audit'];

// Each panel is its own chunk, loaded when its tab opens.
const StoragePanel = lazyChunk(() => import('../../storage/components/StoragePanel'));
const DentistPanel = lazyChunk(() => import('../../dentists/components/DentistPanel'));
const DevicesPanel = lazyChunk(() => import('../../devices/components/DevicesPanel'));
const RequiredFieldsEditor = lazyChunk(() => import('../../orders/components/RequiredFieldsEditor'));
const ProductsPanel = lazyChunk(() => import('../../catalogue/components/ProductsPanel'));
const OrganizationPanel = lazyChunk(() => import('../../company/components/OrganizationPanel'));
const ReceiveEmailPanel = lazyChunk(() => import('../../account/components/ReceiveEmailPanel'));
const AuthAppsPanel = lazyChunk(() => import('../../account/components/AuthAppsPanel'));
const ContactsPanel = lazyChunk(() => import('../../account/components/ContactsPanel'));
const WebhooksPanel = lazyChunk(() => import('../../webhooks/components/WebhooksPanel'));
const AppActivityPanel = lazyChunk(() => import('../../apps/components/AppActivityPanel'));
const AccessLogPanel = lazyChunk(() => import('../../audit/components/AccessLogPanel'));

const TAB_KEYS = [
  'account',
  'organization',
  'contacts',
  'storage',
  'dentists',
  'scanners',
  'prescriptions',
  'products',
  'webhooks',
  'appActivity',
  'accessLog',
] as const;
type TabKey = (typeof TAB_KEYS)[number];
/** The permission a tab needs; the account tab is everyone's. Storage and dentists are for clinics and laboratories. */
const TAB_PERMISSION: Partial<Record<TabKey, string>> = {
  storage: 'case:view',
  dentists: 'case:view',
  scanners: 'device:view',
  prescriptions: 'order:view',
  products: 'order:view',
  contacts: 'order:view',
  webhooks: Permission.WebhookManage,
  appActivity: Permission.AppAudit,
  accessLog: Permission.AuditRead,
};

export default function OwnSpacePage() {
  const { user } = useSession();
  const { t } = useTranslation(['ownSpace', 'account', 'company']);
  const { t: tCatalogue } = useTranslation('catalogue');
  const { t: tWebhooks } = useTranslation('webhooks');
  const { t: tApps } = useTranslation('apps');
  const { t: tAudit } = useTranslation('audit');
  const [params, setParams] = useSearchParams();
  const can = useAccess();
  if (!user) return null;
  const allowed = (key: TabKey) => {
    const permission = TAB_PERMISSION[key];
    // Prescription requirements and the product catalogue are what a laboratory offers the clinics sending to it.
    if ((key === 'prescriptions' || key === 'products') && user.organization.type !== OrgType.Lab) return false;
    return !permission || can(permission);
  };
  const requested = params.get('tab');
  // A tab the user may not open (or an unknown one) falls back to the account tab.
  const active: TabKey =
    (TAB_KEYS as readonly string[]).includes(requested ?? '') && allowed(requested as TabKey)
      ? (requested as TabKey)
      : 'account';

  const panel = (node: React.ReactNode) => <Suspense fallback={<Spin />}>{node}</Suspense>;
  const tab = (key: TabKey, label: string) => <span data-testid={`own-tab-${key}`}>{label}</span>;
  const account = (
    <Row gutter={[16, 16]} data-testid="own-space">
      <Col xs={24} lg={12}>
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <AccountInfoCard user={user} />
          </Col>
          {/* How the user is told of order events, and the apps they let act for them: part of the account. */}
          <Col span={24}>{panel(<ReceiveEmailPanel />)}</Col>
          <Col span={24}>{panel(<AuthAppsPanel />)}</Col>
        </Row>
      </Col>
      <Col xs={24} lg={12}>
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <OrganizationCard user={user} />
          </Col>
          <Col span={24}>
            <ToothNumberingCard value={user.toothNumberingSystem} />
          </Col>
          <Col span={24}>
            <ChangePasswordCard />
          </Col>
          <Col span={24}>
            <ImprovementPlanCard />
          </Col>
        </Row>
      </Col>
    </Row>
  );

  return (
    <Tabs
      activeKey={active}
      destroyOnHidden
      onChange={(key) => setParams(key === 'account' ? {} : { tab: key }, { replace: true })}
      items={[
        {
          key: 'account' as TabKey,
          label: <span data-testid="own-tab-account">{t('tabs.account', { defaultValue: 'Account' })}</span>,
          children: account,
        },
        {
          key: 'organization' as TabKey,
          label: tab('organization', t('company:tab')),
          children: panel(<OrganizationPanel />),
        },
        {
          key: 'contacts' as TabKey,
          label: tab('contacts', t('account:tabs.contacts')),
          children: panel(<ContactsPanel />),
        },
        {
          key: 'storage' as TabKey,
          label: <span data-testid="own-tab-storage">{t('tabs.storage', { defaultValue: 'Storage' })}</span>,
          children: panel(<StoragePanel />),
        },
        {
          key: 'dentists' as TabKey,
          label: (
            <span data-testid="own-tab-dentists">{t('tabs.dentists', { defaultValue: 'Dentist management' })}</span>
          ),
          children: panel(<DentistPanel />),
        },
        {
          key: 'scanners' as TabKey,
          label: <span data-testid="own-tab-scanners">{t('tabs.scanners', { defaultValue: 'Scanners' })}</span>,
          children: panel(<DevicesPanel />),
        },
        {
          key: 'prescriptions' as TabKey,
          label: <span data-testid="own-tab-prescriptions">{t('tabs.prescriptions')}</span>,
          children: panel(<RequiredFieldsEditor />),
        },
        {
          key: 'products' as TabKey,
          label: <span data-testid="own-tab-products">{tCatalogue('products.title')}</span>,
          children: panel(<ProductsPanel />),
        },
        {
          key: 'webhooks' as TabKey,
          label: tab('webhooks', tWebhooks('title')),
          children: panel(<WebhooksPanel />),
        },
        {
          key: 'appActivity' as TabKey,
          label: tab('appActivity', tApps('activity.title')),
          children: panel(<AppActivityPanel />),
        },
        {
          key: 'accessLog' as TabKey,
          label: tab('accessLog', tAudit('title')),
          children: panel(<AccessLogPanel />),
        },
      ].filter((item) => allowed(item.key))}
    />
  );
}
