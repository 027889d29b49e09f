import { Suspense, useState } from 'react';
import { Button, type ButtonProps } from 'antd';
import SendOutlined from '@ant-design/icons/SendOutlined';
import { useTranslation } from 'react-i18next';
import { OrderPermission, OrgType } from '@portal/contracts';
import { useAccess } from '../../../components/Access';
import { useSession } from '../../../lib/session';
import { lazyChunk } from '../../../lib/lazyChunk';

// The dialog (tooth chart, editor, rules) is its own chunk: the case pages only carry this button.
const SendToLabDialog = lazyChunk(() => import('./SendToLabDialog'));

/**
 * "Send to lab" for the case pages: shown to clinic users who may edit orders. The dialog stays mounted
 * once loaded, so it can offer to open the new order after it closes.
 */
export function SendToLabButton({
  caseCodes,
  treatments,
  cases,
  onSent,
  ...props
}: {
  caseCodes: string[];
  treatments?: readonly string[];
  /** The cases' names and treatments: the teeth a name gives ("Bridge 34-36") are chosen for the user. */
  cases?: readonly { name: string; treatments: readonly string[] }[];
  onSent?: () => void;
} & Omit<ButtonProps, 'onClick'>) {
  const { t } = useTranslation('orders');
  const { user } = useSession();
  const can = useAccess();
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  if (user?.organization.type !== OrgType.Clinic || !can(OrderPermission.Create)) return null;
  return (
    <>
      <Button
        icon={<SendOutlined aria-hidden />}
        data-testid="send-to-lab"
        disabled={caseCodes.length === 0}
        {...props}
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      >
        {t('send.button')}
      </Button>
      {loaded ? (
        <Suspense fallback={null}>
          <SendToLabDialog
            open={open}
            caseCodes={caseCodes}
            treatments={treatments}
            cases={cases}
            onClose={() => setOpen(false)}
            onSent={onSent}
          />
        </Suspense>
      ) : null}
    </>
  );
}
