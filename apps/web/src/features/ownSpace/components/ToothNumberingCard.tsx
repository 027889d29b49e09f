import { useState } from 'react';
import { Card, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { normalizeToothNumbering, TOOTH_NUMBERING_SYSTEMS, type ToothNumberingSystem } from '@portal/contracts';
import { patchUser } from '../../../lib/session';
import { notify } from '../../../lib/notify';
import { setToothNumbering } from '../api/setToothNumbering';

export function ToothNumberingCard({ value }: { value: string }) {
  const { t } = useTranslation('ownSpace');
  const [busy, setBusy] = useState(false);
  const onChange = async (next: ToothNumberingSystem) => {
    setBusy(true);
    try {
      await setToothNumbering(next);
      patchUser({ toothNumberingSystem: next });
      notify.success(t('common:saved'));
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('tooth.title')} data-testid="own-tooth">
      <Radio.Group
        value={normalizeToothNumbering(value)}
        disabled={busy}
        onChange={(e) => void onChange(e.target.value as ToothNumberingSystem)}
      >
        {TOOTH_NUMBERING_SYSTEMS.map((s) => (
          <Radio key={s} value={s} data-testid={`tooth-${s}`}>
            {t(`tooth.${s}`)}
          </Radio>
        ))}
      </Radio.Group>
    </Card>
  );
}
