import { useState } from 'react';
import { Alert, Card, Form, Radio, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession, patchUser } from '../../../lib/session';
import { notify } from '../../../lib/notify';
import { updateReceiving } from '../api/account';

/** Own space → receive email: order mails on or off, and order notices as station letters or text messages. */
export default function ReceiveEmailPanel() {
  const { t } = useTranslation('account');
  const { user } = useSession();
  const [busy, setBusy] = useState(false);
  if (!user) return null;

  const save = async (patch: { receiveEmail?: boolean; msgReceiveType?: 'station' | 'sms' }) => {
    setBusy(true);
    try {
      await updateReceiving(patch);
      patchUser(patch);
      notify.success(t('common:saved'));
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('receive.title')} data-testid="own-receive">
      <Form layout="vertical">
        <Form.Item label={t('receive.mails')} htmlFor="own-receive-mails" extra={t('receive.mailsHelp')}>
          <Switch
            id="own-receive-mails"
            checked={user.receiveEmail}
            loading={busy}
            onChange={(receiveEmail) => void save({ receiveEmail })}
            data-testid="own-receive-mails"
          />
        </Form.Item>
        <Form.Item label={t('receive.type')}>
          <Radio.Group
            value={user.msgReceiveType}
            disabled={busy}
            onChange={(e) => void save({ msgReceiveType: e.target.value as 'station' | 'sms' })}
            options={[
              { value: 'station', label: <span data-testid="own-receive-station">{t('receive.station')}</span> },
              {
                value: 'sms',
                label: <span data-testid="own-receive-sms">{t('receive.sms')}</span>,
                disabled: !user.phone,
              },
            ]}
          />
        </Form.Item>
        {user.phone ? (
          <p>{t('receive.smsTo', { phone: user.phone })}</p>
        ) : (
          <Alert type="info" showIcon title={t('receive.needsPhone')} />
        )}
      </Form>
    </Card>
  );
}
