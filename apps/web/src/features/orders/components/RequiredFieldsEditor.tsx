import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PRESCRIPTION_FIELDS, TREATMENTS, type Treatment } from '@portal/contracts';
import { useAccess } from '../../../components/Access';
import { errorText } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { messageOf } from '../../../lib/errors';
import { requiredFieldsQuery } from '../api/requiredFields';
import type { RequiredFieldRule } from '../api/types';
import { useSaveRequiredFields } from '../api/useOrderMutations';
import { sameRules, setRuleField } from '../lib/requiredRules';

/**
 * A laboratory's prescription rules: per work type, which tooth fields a clinic must fill before it can
 * send an order. Clinics see them in the send dialog and cannot send without them.
 */
export default function RequiredFieldsEditor() {
  const { t } = useTranslation('orders');
  const { t: tc } = useTranslation('cases');
  const can = useAccess();
  const editable = can('order:edit');
  const saved = useQuery(requiredFieldsQuery());
  const [draft, setDraft] = useState<RequiredFieldRule[]>([]);
  useEffect(() => {
    if (saved.data) setDraft(saved.data.rules);
  }, [saved.data]);

  const save = useSaveRequiredFields({ onSuccess: () => notify.success(t('rules.saved')) });
  const dirty = saved.data ? !sameRules(draft, saved.data.rules) : false;

  const columns: ColumnsType<Treatment> = [
    {
      title: t('field.workTypes'),
      key: 'workType',
      fixed: 'left',
      render: (_, w) => tc(`treatment.${w}`, { defaultValue: w }),
    },
    ...PRESCRIPTION_FIELDS.map((f) => ({
      title: t(`tooth.${f}`),
      key: f,
      align: 'center' as const,
      render: (_: unknown, w: Treatment) => (
        <Checkbox
          checked={draft.some((r) => r.workType === w && r.fields.includes(f))}
          disabled={!editable || save.isPending}
          aria-label={`${tc(`treatment.${w}`, { defaultValue: w })}: ${t(`tooth.${f}`)}`}
          data-testid={`required-${w}-${f}`}
          onChange={(e) => setDraft((d) => setRuleField(d, w, f, e.target.checked))}
        />
      ),
    })),
  ];

  return (
    <Card
      title={t('rules.title')}
      data-testid="required-fields"
      extra={
        editable ? (
          <Space>
            <Button
              data-testid="required-reset"
              disabled={!dirty || save.isPending}
              onClick={() => saved.data && setDraft(saved.data.rules)}
            >
              {t('rules.reset')}
            </Button>
            <Button
              type="primary"
              data-testid="required-save"
              disabled={!dirty}
              loading={save.isPending}
              onClick={() => save.mutate(draft)}
            >
              {t('common:save')}
            </Button>
          </Space>
        ) : null
      }
    >
      <Typography.Paragraph type="secondary">{t('rules.hint')}</Typography.Paragraph>
      {saved.isError ? (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} title={messageOf(saved.error, errorText)} />
      ) : null}
      <Table<Treatment>
        rowKey={(w) => w}
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        loading={saved.isPending}
        columns={columns}
        dataSource={[...TREATMENTS]}
        onRow={(w) => ({ 'data-testid': `required-row-${w}` }) as React.HTMLAttributes<HTMLElement>}
      />
    </Card>
  );
}
