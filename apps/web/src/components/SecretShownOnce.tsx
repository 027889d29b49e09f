import type { ReactNode } from 'react';
import { Alert, Typography } from 'antd';

/**
 * A secret the server answers this once (a webhook's signing secret, an app's client secret): the warning that it
 * cannot be read again, and the value to copy.
 */
export function SecretShownOnce({ secret, warning, testId }: { secret: string; warning: ReactNode; testId: string }) {
  return (
    <>
      <Alert type="warning" showIcon message={warning} style={{ marginBottom: 12 }} />
      <Typography.Paragraph copyable code data-testid={testId}>
        {secret}
      </Typography.Paragraph>
    </>
  );
}
