import { useState } from 'react';
import { Button, Card, Modal, Space, Tag, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { patchUser, useSession } from '../../../lib/session';
import { cancelParticipation, participate } from '../api/usage';

/** Own space: join or leave the improvement programme, after reading exactly what is collected. */
export function ImprovementPlanCard() {
  const { t } = useTranslation('whatsnew');
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const joined = user?.improvementPlan === true;
  const change = useMutation({
    mutationFn: (join: boolean) => (join ? participate() : cancelParticipation()),
    onSuccess: (state) => {
      patchUser({ improvementPlan: state.improvementPlan });
      setOpen(false);
      notify.success(state.improvementPlan ? t('plan.joined') : t('plan.left'));
    },
  });

  return (
    <Card
      title={t('plan.title')}
      size="small"
      data-testid="improvement-plan"
      extra={
        <Tag color={joined ? 'green' : undefined} data-testid="improvement-plan-state">
          {joined ? t('plan.on') : t('plan.off')}
        </Tag>
      }
    >
      <Typography.Paragraph type="secondary">{t('plan.summary')}</Typography.Paragraph>
      <Button onClick={() => setOpen(true)} data-testid="improvement-plan-open">
        {joined ? t('plan.manage') : t('plan.join')}
      </Button>
      <Modal
        open={open}
        title={t('plan.title')}
        onCancel={() => setOpen(false)}
        footer={
          <Space wrap>
            <Button onClick={() => setOpen(false)}>{t('plan.close')}</Button>
            {joined ? (
              <Button
                danger
                loading={change.isPending}
                onClick={() => change.mutate(false)}
                data-testid="improvement-plan-leave"
              >
                {t('plan.leave')}
              </Button>
            ) : (
              <Button
                type="primary"
                loading={change.isPending}
                onClick={() => change.mutate(true)}
                data-testid="improvement-plan-join"
              >
                {t('plan.agree')}
              </Button>
            )}
          </Space>
        }
      >
        <div data-testid="improvement-plan-dialog">
          <Typography.Paragraph>{t('plan.intro')}</Typography.Paragraph>
          <Typography.Text strong>{t('plan.collectedTitle')}</Typography.Text>
          <ul>
            <li>{t('plan.collectedScreen')}</li>
            <li>{t('plan.collectedAction')}</li>
            <li>{t('plan.collectedLoad')}</li>
          </ul>
          <Typography.Text strong>{t('plan.notCollectedTitle')}</Typography.Text>
          <ul>
            <li>{t('plan.notCollectedIdentity')}</li>
            <li>{t('plan.notCollectedContent')}</li>
            <li>{t('plan.notCollectedTime')}</li>
          </ul>
          <Typography.Paragraph type="secondary">{t('plan.howSent')}</Typography.Paragraph>
        </div>
      </Modal>
    </Card>
  );
}
