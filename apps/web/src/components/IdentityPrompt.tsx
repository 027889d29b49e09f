import { useEffect, useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, http } from '../lib/http';
import { useBackClose } from '../lib/useBackClose';

type Resolver = (ok: boolean) => void;
let openPrompt: ((resolve: Resolver) => void) | null = null;

/** Asks for the current password before a sensitive call is replayed (code 1014). */
export function requestIdentity(): Promise<boolean> {
  return new Promise((resolve) => {
    if (!openPrompt) return resolve(false);
    openPrompt(resolve);
  });
}

export function IdentityPrompt() {
  const { t } = useTranslation();
  const [resolver, setResolver] = useState<Resolver | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    openPrompt = (resolve) => {
      setPassword('');
      setError(null);
      setResolver(() => resolve);
    };
    return () => {
      openPrompt = null;
    };
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
      await http.post('user/checkIdentity', { password }, { silent: true });
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
      title={t('identity.title')}
      onOk={() => void submit()}
      onCancel={() => finish(false)}
      okButtonProps={{ loading: busy, 'data-testid': 'password-prompt-ok' } as object}
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
