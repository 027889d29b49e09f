import { useEffect, useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, http } from '../lib/http';
import { useBackClose } from '../lib/useBackClose';
import { registerPrompt, type IdentityResolver } from './identity';

type Resolver = IdentityResolver;

/** Lazy-loaded on the first sensitive call. */
export default function IdentityPrompt() {
  const { t } = useTranslation();
  const [resolver, setResolver] = useState<Resolver | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    registerPrompt((resolve) => {
      setPassword('');
      setError(null);
      setResolver(() => resolve);
    });
  }, []);

  const finish = (ok: boolean) => {
    resolver?.(ok);
    setResolver(null);
  };
  useBackClose(resolver !== null, () => finish(false));

  const submit = async () => {
    if (!password) return setError(t('required'));
    setBusy(true);
    try {
      await http.write('user/checkIdentity', { password }, { silent: true });
      finish(true);
    } catch (e) {
      setError(e instanceof ApiError ? e.msg : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={resolver !== null}
      // Asked in the middle of an action, often from a confirmation dialog: always above whatever is open.
      zIndex={2000}
      title={t('identity.title')}
      onOk={() => void submit()}
      onCancel={() => finish(false)}
      okButtonProps={{ loading: busy, 'data-testid': 'password-prompt-ok' }}
      okText={t('confirm')}
      cancelText={t('cancel')}
      destroyOnHidden
    >
      <p>{t('identity.text')}</p>
      <Form.Item validateStatus={error ? 'error' : undefined} help={error ?? undefined}>
        <Input.Password
          autoFocus
          value={password}
          data-testid="password-prompt-input"
          placeholder={t('identity.password')}
          onChange={(e) => setPassword(e.target.value)}
          onPressEnter={() => void submit()}
        />
      </Form.Item>
    </Modal>
  );
}
