import { useState } from 'react';
import { Alert, Button, Card, Input, List, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ERRORS, type CompanyInfo, type OpenOrder } from '@portal/contracts';
import { ApiError } from '../../../lib/http';
import { logout } from '../../../lib/session';
import { closeAccount } from '../api/company';

/**
 * Closing the organization's account: the administrator types the organization's name to confirm (and the password,
 * asked by the sensitive-action prompt). Open orders keep it from closing and are listed; once closed, everyone in
 * it is signed out.
 */
export function CloseAccountCard({ company }: { company: CompanyInfo }) {
  const { t } = useTranslation('company');
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [openOrders, setOpenOrders] = useState<OpenOrder[]>([]);
  const matches = typed.trim() === company.name.trim();

  const close = async () => {
    setBusy(true);
    try {
      await closeAccount(typed.trim());
      setOpen(false);
      await logout({ reason: t('close.done') });
    } catch (err) {
      if (err instanceof ApiError && err.code === ERRORS.ORGANIZATION_HAS_OPEN_ORDERS.code)
        setOpenOrders((err.data as { orders?: OpenOrder[] } | null)?.orders ?? []);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('close.title')} data-testid="company-close">
      <Typography.Paragraph>{t('close.text', { days: company.retentionDays })}</Typography.Paragraph>
      <Button
        danger
        data-testid="company-close-open"
        onClick={() => {
          setTyped('');
          setOpenOrders([]);
          setOpen(true);
        }}
      >
        {t('close.button')}
      </Button>
      <Modal
        open={open}
        title={t('close.confirmTitle')}
        onCancel={() => setOpen(false)}
        okText={t('close.button')}
        cancelText={t('common:cancel')}
        okButtonProps={{ danger: true, disabled: !matches, loading: busy, 'data-testid': 'company-close-confirm' }}
        onOk={() => void close()}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('close.text', { days: company.retentionDays })}</Typography.Paragraph>
        <label htmlFor="company-close-name">{t('close.typeName', { name: company.name })}</label>
        <Input
          id="company-close-name"
          data-testid="company-close-name"
          value={typed}
          autoComplete="off"
          onChange={(e) => setTyped(e.target.value)}
          style={{ marginTop: 8 }}
        />
        {openOrders.length ? (
          <Alert
            type="error"
            showIcon
            style={{ marginTop: 16 }}
            title={t('close.openOrders', { count: openOrders.length })}
            description={
              <List
                size="small"
                data-testid="company-close-orders"
                dataSource={openOrders}
                renderItem={(o) => (
                  <List.Item>
                    {o.orderCode} · {t(`orders:status.${o.status}`, { defaultValue: o.status })} · {o.partner}
                  </List.Item>
                )}
              />
            }
          />
        ) : null}
      </Modal>
    </Card>
  );
}
