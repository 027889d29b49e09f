import { useState } from 'react';
import Modal from 'antd/es/modal';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { resendActivate } from '../api/resendActivate';

/** Shown when a login answers 1019 (email not verified); loaded only then. */
export default function ActivationDialog({ account, onClose }: { account: string; onClose: () => void }) {
  const { t } = useTranslation('auth');
  const [busy, setBusy] = useState(false);
  useBackClose(true, onClose);
  const resend = async () => {
    setBusy(true);
    try {
      await resendActivate(account);
      notify.success(t('activation.sent'));
      onClose();
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('activation.title')}
      onCancel={onClose}
      onOk={() => void resend()}
      okText={t('activation.resend')}
      cancelText={t('common:cancel')}
      okButtonProps={{ loading: busy, 'data-testid': 'login-resend-activation' }}
    >
      <p data-testid="login-inactive">{t('activation.text')}</p>
    </Modal>
  );
}
