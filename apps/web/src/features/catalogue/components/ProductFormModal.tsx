import { useEffect } from 'react';
import { Checkbox, Col, Form, Input, InputNumber, Modal, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  CURRENCIES,
  PRESCRIPTION_FIELDS,
  PRODUCT_MATERIAL_MAX,
  PRODUCT_MATERIALS_MAX,
  PRODUCT_NAME_MAX,
  TREATMENTS,
  TURNAROUND_MAX_DAYS,
  ERRORS,
  type PrescriptionField,
  type Treatment,
} from '@portal/contracts';
import { ApiError, errorText } from '../../../lib/http';
import { messageOf } from '../../../lib/errors';
import { notify } from '../../../lib/notify';
import type { LabProduct } from '../api/types';
import { useSaveProduct } from '../api/useCatalogueMutations';
import { searchable } from '../../../lib/selectSearch';

interface Values {
  name: string;
  workType?: Treatment;
  materials: string[];
  turnaroundDays?: number;
  price?: number | null;
  currency?: LabProduct['currency'];
  requiredFields: PrescriptionField[];
}

/** Adds a product to the laboratory's catalogue, or edits one (`product`); the catalogue then refreshes. */
export function ProductFormModal({
  open,
  product,
  onClose,
}: {
  open: boolean;
  product: LabProduct | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('catalogue');
  const { t: tc } = useTranslation('cases');
  const { t: to } = useTranslation('orders');
  const [form] = Form.useForm<Values>();
  const price = Form.useWatch('price', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (product)
      form.setFieldsValue({
        name: product.name,
        workType: product.workType,
        materials: product.materials,
        turnaroundDays: product.turnaroundDays,
        price: product.price,
        currency: product.currency,
        requiredFields: product.requiredFields,
      });
  }, [open, product, form]);

  const body = (v: Values) => ({
    ...(product ? { productCode: product.productCode } : {}),
    name: v.name.trim(),
    workType: v.workType!,
    materials: v.materials.map((m) => m.trim()).filter(Boolean),
    turnaroundDays: v.turnaroundDays!,
    price: v.price ?? null,
    currency: v.price === null || v.price === undefined ? null : (v.currency ?? null),
    requiredFields: v.requiredFields,
  });
  const save = useSaveProduct({
    onSuccess: () => {
      notify.success(t('products.saved'));
      onClose();
    },
    onError: (err) => {
      // A taken name, or a field the server refused, is marked on its field; anything else as a message.
      const field = err instanceof ApiError ? (err.data as { field?: string } | null)?.field : undefined;
      const text = messageOf(err, errorText);
      if (err instanceof ApiError && err.code === ERRORS.PRODUCT_NAME_TAKEN.code)
        form.setFields([{ name: 'name', errors: [text] }]);
      else if (field && ['name', 'workType', 'turnaroundDays', 'price', 'currency'].includes(field))
        form.setFields([{ name: field as keyof Values, errors: [text] }]);
      else notify.error(text);
    },
  });

  return (
    <Modal
      open={open}
      title={product ? t('form.editTitle') : t('form.addTitle')}
      onCancel={onClose}
      okText={t('common:save')}
      cancelText={t('common:cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'product-save' }}
      onOk={() =>
        void form.validateFields().then(
          (v) => save.mutate(body(v)),
          () => undefined,
        )
      }
      destroyOnHidden
      width="min(640px, 96vw)"
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ materials: [], requiredFields: [] }}
        data-testid="product-form"
      >
        <Form.Item
          name="name"
          label={t('field.name')}
          rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }]}
        >
          <Input maxLength={PRODUCT_NAME_MAX} data-testid="product-name" />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={14}>
            <Form.Item
              name="workType"
              label={t('field.workType')}
              rules={[{ required: true, message: t('form.workTypeRequired') }]}
            >
              <Select
                {...searchable}
                data-testid="product-work-type"
                options={TREATMENTS.map((w) => ({ value: w, label: tc(`treatment.${w}`, { defaultValue: w }) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={10}>
            <Form.Item
              name="turnaroundDays"
              label={t('field.turnaroundDays')}
              rules={[{ required: true, message: t('form.turnaroundRequired') }]}
            >
              <InputNumber
                min={0}
                max={TURNAROUND_MAX_DAYS}
                precision={0}
                style={{ width: '100%' }}
                data-testid="product-turnaround"
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="materials"
          label={t('field.materials')}
          extra={t('form.materialsHint')}
          rules={[
            {
              validator: async (_, v: string[] = []) => {
                if (v.length > PRODUCT_MATERIALS_MAX) throw new Error(t('form.tooMany', { n: PRODUCT_MATERIALS_MAX }));
                if (v.some((m) => m.length > PRODUCT_MATERIAL_MAX))
                  throw new Error(t('form.tooLong', { n: PRODUCT_MATERIAL_MAX }));
              },
            },
          ]}
        >
          <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',']} data-testid="product-materials" />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={12}>
            <Form.Item name="price" label={t('field.price')}>
              <InputNumber
                min={0}
                max={999_999.99}
                precision={2}
                style={{ width: '100%' }}
                data-testid="product-price"
              />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item
              name="currency"
              label={t('field.currency')}
              rules={[{ required: price !== null && price !== undefined, message: t('form.currencyRequired') }]}
            >
              <Select
                {...searchable}
                allowClear
                data-testid="product-currency"
                options={CURRENCIES.map((c) => ({ value: c, label: c }))}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="requiredFields" label={t('field.requiredFields')} extra={t('form.requiredHint')}>
          <Checkbox.Group
            data-testid="product-required"
            options={PRESCRIPTION_FIELDS.map((f) => ({ value: f, label: to(`tooth.${f}`) }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
