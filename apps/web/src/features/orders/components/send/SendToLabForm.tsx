import type { ReactNode } from 'react';
import { Alert, Col, DatePicker, Form, Input, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { TREATMENTS } from '@portal/contracts';
import type { PrescriptionField } from '../../api/types';
import { ORDER_TYPES } from '../../lib/orderRules';
import { TeethPicker } from './TeethPicker';
import type { SendFormValues, SendToLab } from './useSendToLab';
import { ScreenLink } from '../../../../components/ScreenLink';
import { searchable } from '../../../../lib/selectSearch';

/**
 * The prescription form of "Send to lab". `labScorecard` renders under the laboratory (how it has done lately),
 * `productPicker` beside the order type (the laboratory's catalogue) and `deliveryEstimate` under the requested date
 * (the estimate from the product's turnaround); they read the chosen laboratory and work types from `send`.
 */
export function SendToLabForm({
  send,
  labScorecard,
  productPicker,
  deliveryEstimate,
}: {
  send: SendToLab;
  labScorecard?: ReactNode;
  productPicker?: ReactNode;
  deliveryEstimate?: ReactNode;
}) {
  const { t } = useTranslation('orders');
  const { t: tc } = useTranslation('cases');
  const { form, labRules, required, missing, labName } = send;
  const fieldName = (f: PrescriptionField | 'teeth') => (f === 'teeth' ? t('missing.teeth') : t(`tooth.${f}`));

  return (
    <div data-testid="send-dialog">
      {send.noLabs ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="send-no-labs"
          title={t('send.noLabs')}
          action={<ScreenLink to="/partner-management">{t('send.toPartners')}</ScreenLink>}
        />
      ) : null}
      <Form<SendFormValues> form={form} layout="vertical" initialValues={{ sharePatientName: true, workTypes: [] }}>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item
              name="partnerCode"
              label={t('send.lab')}
              rules={[{ required: true, message: t('send.labRequired') }]}
              extra={labScorecard}
            >
              <Select
                {...searchable}
                data-testid="send-lab"
                loading={send.labsLoading}
                placeholder={t('send.labPlaceholder')}
                options={send.labs.map((p) => ({ value: p.partnerCode, label: p.name }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="orderType"
              label={t('field.orderType')}
              rules={[{ required: true, message: t('send.orderTypeRequired') }]}
            >
              <Select
                data-testid="send-order-type"
                options={ORDER_TYPES.map((o) => ({ value: o, label: t(`orderType.${o}`) }))}
              />
            </Form.Item>
            {productPicker}
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="requestedDeliveryDate" label={t('field.requestedDeliveryDate')}>
              <DatePicker
                data-testid="send-delivery-date"
                style={{ width: '100%' }}
                disabledDate={(d) => d.isBefore(dayjs(), 'day')}
              />
            </Form.Item>
            {deliveryEstimate}
          </Col>
        </Row>
        <Form.Item
          name="workTypes"
          label={t('field.workTypes')}
          rules={[{ required: true, type: 'array', min: 1, message: t('send.workTypesRequired') }]}
        >
          <Select
            {...searchable}
            data-testid="send-work-types"
            mode="multiple"
            allowClear
            options={TREATMENTS.map((w) => ({ value: w, label: tc(`treatment.${w}`, { defaultValue: w }) }))}
          />
        </Form.Item>
        {labRules.length > 0 ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="send-rules"
            title={t('send.rulesTitle', { lab: labName })}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {labRules.map((r) => (
                  <li key={r.workType}>
                    {tc(`treatment.${r.workType}`, { defaultValue: r.workType })}: {r.fields.map(fieldName).join(', ')}
                  </li>
                ))}
              </ul>
            }
          />
        ) : null}
        <Form.Item label={t('send.teeth')} required={required.size > 0}>
          <TeethPicker send={send} />
        </Form.Item>
        <Form.Item name="memo" label={t('field.memo')} rules={[{ max: 2000, message: t('tooLong', { n: 2000 }) }]}>
          <Input.TextArea data-testid="send-memo" rows={3} maxLength={2000} showCount />
        </Form.Item>
        <Form.Item
          name="sharePatientName"
          label={t('field.sharePatientName')}
          valuePropName="checked"
          extra={t('send.shareHint')}
        >
          <Switch data-testid="send-share-name" />
        </Form.Item>
      </Form>
      <div ref={send.missingRef}>
        {missing.length ? (
          <Alert
            type="error"
            showIcon
            data-testid="send-missing"
            title={t('missing.title', { lab: labName })}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {missing.map((m) => (
                  <li key={m.workType} data-testid={`send-missing-${m.workType}`}>
                    {tc(`treatment.${m.workType}`, { defaultValue: m.workType })}: {m.fields.map(fieldName).join(', ')}
                  </li>
                ))}
              </ul>
            }
          />
        ) : null}
      </div>
      {send.serverError ? (
        <Alert type="error" showIcon style={{ marginTop: 12 }} data-testid="send-error" title={send.serverError} />
      ) : null}
    </div>
  );
}
