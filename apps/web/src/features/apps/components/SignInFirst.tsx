import { Button, Space } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/** A page an app sends the user to asks them to sign in first, and comes back to the same address afterwards. */
export function SignInFirst({ here, message }: { here: string; message: string }) {
  const { t } = useTranslation('apps');
  const navigate = useNavigate();
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <p>{message}</p>
      <Button
        type="primary"
        block
        data-testid="app-authorize-sign-in"
        onClick={() => void navigate(`/login?${new URLSearchParams({ redirectUrl: here }).toString()}`)}
      >
        {t('signIn')}
      </Button>
    </Space>
  );
}
