import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Col, DatePicker, Form, Input, Modal, Result, Row, Select, Switch, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { missingPrescriptionFields, normalizeToothNumbering, TREATMENTS, type Treatment } from '@portal/contracts';
import { errorText } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useBackClose } from '../../../lib/useBackClose';
import { afterDialogClosed } from '../../../lib/afterDialog';
import { messageOf } from '../../../lib/errors';
import { acceptedPartnersQuery } from '../api/acceptedPartners';
import { createOrder } from '../api/createOrder';
import { invalidateWork } from '../api/keys';
import { requiredFieldsQuery } from '../api/requiredFields';
import type { OrderDetail, PrescriptionField, ToothItem } from '../api/types';
import { ORDER_TYPES } from '../lib/orderRules';
import { ORDER_LIST_PATH, orderDetailPath } from '../lib/paths';
import { cleanTooth, itemsForTeeth, toggleTooth } from '../lib/teeth';
import { ToothChart } from './ToothChart';
import { ToothItemsEditor } from './ToothItemsEditor';

interface FormValues {
  partnerCode?: string;
  orderType?: string;
  workTypes?: Treatment[];
  requestedDeliveryDate?: Dayjs | null;
  memo?: string;
  sharePatientName: boolean;
}

/** The work types the cases' treatments name, once each ('None' names none). */
export function suggestedWorkTypes(treatments: readonly string[]): Treatment[] {
  return TREATMENTS.filter((w) => w !== 'None' && treatments.includes(w));
}

/**
 * Sends one or more cases to a partner laboratory as one batch (one order per case, all or none).
 * The laboratory's required prescription fields are checked here first, so a send the server
 * would refuse is stopped with the missing fields named.
 */
export default function SendToLabDialog({
  open,
  caseCodes,
  treatments = [],
  onClose,
  onSent,
}: {
  open: boolean;
  caseCodes: string[];
  /** The cases' treatments, offered as the order's work types. */
  treatments?: readonly string[];
  onClose: () => void;
  onSent?: (orders: OrderDetail[]) => void;
}) {
  const { t } = useTranslation('orders');
  const { t: tc } = useTranslation('cases');
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { user } = useSession();
  const system = normalizeToothNumbering(user?.toothNumberingSystem);
  const [form] = Form.useForm<FormValues>();
  const [items, setItems] = useState<ToothItem[]>([]);
  const [tried, setTried] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [sent, setSent] = useState<OrderDetail[] | null>(null);
  const missingRef = useRef<HTMLDivElement>(null);
  useBackClose(open, onClose);

  useEffect(() => {
    if (!open) return;
    setItems([]);
    setTried(false);
    setServerError(null);
    form.setFieldsValue({ workTypes: suggestedWorkTypes(treatments) });
    // Suggested on opening only: what the user then picks stays theirs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const partnerCode = Form.useWatch('partnerCode', form);
  const workTypes = Form.useWatch('workTypes', form);
  const partners = useQuery({ ...acceptedPartnersQuery(), enabled: open });
  const rules = useQuery({ ...requiredFieldsQuery(partnerCode), enabled: open && Boolean(partnerCode) });
  const labRules = useMemo(() => (partnerCode ? (rules.data?.rules ?? []) : []), [partnerCode, rules.data]);

  /** The fields the laboratory requires for the work types chosen so far. */
  const required = useMemo(() => {
    const set = new Set<PrescriptionField>();
    for (const r of labRules) if (workTypes?.includes(r.workType)) r.fields.forEach((f) => set.add(f));
    return set;
  }, [labRules, workTypes]);
  const teeth = useMemo(() => items.map(cleanTooth), [items]);
  const missing = tried ? missingPrescriptionFields(labRules, { workTypes: workTypes ?? [], teeth }) : [];

  const create = useMutation({
    mutationFn: createOrder,
    onSuccess: (res) => {
      notify.success(t('send.sent', { count: res.list.length }));
      void invalidateWork(qc);
      onClose();
      onSent?.(res.list);
      // The result dialog opens once this one has left the browser history (see useBackClose).
      afterDialogClosed(() => setSent(res.list));
    },
    // 2036 partnership, 2037 required fields, 2038/2039 scanner limits: the server's message names what to fix.
    onError: (err) => setServerError((err as { msg?: string }).msg || messageOf(err, errorText)),
  });

  const submit = async () => {
    setServerError(null);
    let v: FormValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setTried(true);
    if (missingPrescriptionFields(labRules, { workTypes: v.workTypes ?? [], teeth }).length > 0) {
      // The list of what is missing renders below the form: bring it into view.
      requestAnimationFrame(() => missingRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' }));
      return;
    }
    create.mutate({
      caseCodes,
      partnerCode: v.partnerCode!,
      orderType: v.orderType!,
      workTypes: v.workTypes ?? [],
      teeth,
      ...(v.requestedDeliveryDate ? { requestedDeliveryDate: v.requestedDeliveryDate.format('YYYY-MM-DD') } : {}),
      ...(v.memo?.trim() ? { memo: v.memo.trim() } : {}),
      sharePatientName: v.sharePatientName,
    });
  };

  const fieldName = (f: PrescriptionField | 'teeth') => (f === 'teeth' ? t('missing.teeth') : t(`tooth.${f}`));
  const labs = partners.data ?? [];
  const labName = labs.find((p) => p.partnerCode === partnerCode)?.organization.name ?? rules.data?.labName ?? '';

  return (
    <>
      <Modal
        open={open}
        title={t('send.title', { count: caseCodes.length })}
        width="min(1100px, 96vw)"
        onCancel={onClose}
        destroyOnHidden
        footer={[
          <Button key="cancel" onClick={onClose}>
            {t('common:cancel')}
          </Button>,
          <Button
            key="send"
            type="primary"
            data-testid="send-submit"
            loading={create.isPending}
            // Until the laboratory's rules are known, the check before sending could not be made.
            disabled={Boolean(partnerCode) && rules.isFetching}
            onClick={() => void submit()}
          >
            {t('send.submit')}
          </Button>,
        ]}
      >
        <div data-testid="send-dialog">
          {partners.isSuccess && labs.length === 0 ? (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              data-testid="send-no-labs"
              title={t('send.noLabs')}
              action={<Link to="/partner-management">{t('send.toPartners')}</Link>}
            />
          ) : null}
          <Form<FormValues> form={form} layout="vertical" initialValues={{ sharePatientName: true, workTypes: [] }}>
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item
                  name="partnerCode"
                  label={t('send.lab')}
                  rules={[{ required: true, message: t('send.labRequired') }]}
                >
                  <Select
                    data-testid="send-lab"
                    showSearch={{ optionFilterProp: 'label' }}
                    loading={partners.isPending}
                    placeholder={t('send.labPlaceholder')}
                    options={labs.map((p) => ({ value: p.partnerCode, label: p.organization.name }))}
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
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="requestedDeliveryDate" label={t('field.requestedDeliveryDate')}>
                  <DatePicker
                    data-testid="send-delivery-date"
                    style={{ width: '100%' }}
                    disabledDate={(d) => d.isBefore(dayjs(), 'day')}
                  />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item
              name="workTypes"
              label={t('field.workTypes')}
              rules={[{ required: true, type: 'array', min: 1, message: t('send.workTypesRequired') }]}
            >
              <Select
                data-testid="send-work-types"
                mode="multiple"
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
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
                        {tc(`treatment.${r.workType}`, { defaultValue: r.workType })}:{' '}
                        {r.fields.map(fieldName).join(', ')}
                      </li>
                    ))}
                  </ul>
                }
              />
            ) : null}
            <Form.Item label={t('send.teeth')} required={required.size > 0}>
              <div style={{ maxWidth: 340, margin: '0 auto' }}>
                <ToothChart
                  selected={items.map((i) => i.number)}
                  system={system}
                  onToggle={(fdi) =>
                    setItems(
                      itemsForTeeth(
                        items,
                        toggleTooth(
                          items.map((i) => i.number),
                          fdi,
                        ),
                      ),
                    )
                  }
                />
              </div>
              {items.length ? (
                <>
                  <div style={{ textAlign: 'center', marginBottom: 8 }}>
                    <Button size="small" type="link" data-testid="send-teeth-clear" onClick={() => setItems([])}>
                      {t('send.clearTeeth')}
                    </Button>
                  </div>
                  <ToothItemsEditor
                    items={items}
                    system={system}
                    required={required}
                    showErrors={tried}
                    onChange={setItems}
                  />
                </>
              ) : (
                <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
                  {t('send.teethHint')}
                </Typography.Paragraph>
              )}
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
          <div ref={missingRef}>
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
                        {tc(`treatment.${m.workType}`, { defaultValue: m.workType })}:{' '}
                        {m.fields.map(fieldName).join(', ')}
                      </li>
                    ))}
                  </ul>
                }
              />
            ) : null}
          </div>
          {serverError ? (
            <Alert type="error" showIcon style={{ marginTop: 12 }} data-testid="send-error" title={serverError} />
          ) : null}
        </div>
      </Modal>
      <SentDialog
        orders={sent}
        onClose={() => setSent(null)}
        onOpen={(path) => {
          setSent(null);
          afterDialogClosed(() => void navigate(path));
        }}
      />
    </>
  );
}

/** After sending: open the order (one case) or the order list (several), or stay. */
function SentDialog({
  orders,
  onClose,
  onOpen,
}: {
  orders: OrderDetail[] | null;
  onClose: () => void;
  onOpen: (path: string) => void;
}) {
  const { t } = useTranslation('orders');
  const open = orders !== null;
  useBackClose(open, onClose);
  const single = orders?.length === 1 ? orders[0]! : null;
  return (
    <Modal open={open} footer={null} onCancel={onClose} destroyOnHidden>
      <Result
        status="success"
        data-testid="send-done"
        title={t('send.sent', { count: orders?.length ?? 0 })}
        subTitle={single ? t('send.sentTo', { lab: single.lab.name }) : undefined}
        extra={[
          single ? (
            <Button
              key="order"
              type="primary"
              data-testid="send-open-order"
              onClick={() => onOpen(orderDetailPath(single.orderCode))}
            >
              {t('send.openOrder')}
            </Button>
          ) : (
            <Button key="list" type="primary" data-testid="send-open-list" onClick={() => onOpen(ORDER_LIST_PATH)}>
              {t('send.openList')}
            </Button>
          ),
          <Button key="stay" onClick={onClose} data-testid="send-stay">
            {t('send.stay')}
          </Button>,
        ]}
      />
    </Modal>
  );
}
