import { useEffect } from 'react';
import { DatePicker, Form, Input, Modal, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { CASE_NAME_MAX, FIELD_MAX, TREATMENTS } from '@portal/contracts';
import { useBackClose } from '../../../lib/useBackClose';
import { listDentistsQuery } from '../../dentists';
import type { CaseDetail, CaseInput } from '../api/types';
import { useSaveCase } from '../api/useCaseMutations';
import { searchable } from '../../../lib/selectSearch';
import { listLoading } from '../../../lib/listLoading';

interface Values {
  name: string;
  patientName: string;
  patientId?: string;
  birthDate?: Dayjs | null;
  scanDate?: Dayjs | null;
  dentistId?: number | null;
  treatments?: string[];
  memo?: string;
}

/** Form values → the create/update body (empty optional fields left out). */
export function toCaseInput(v: Values): CaseInput {
  const body: CaseInput = { name: v.name.trim(), patientName: v.patientName.trim(), treatments: v.treatments ?? [] };
  if (v.patientId?.trim()) body.patientId = v.patientId.trim();
  if (v.birthDate) body.birthDate = v.birthDate.format('YYYY-MM-DD');
  if (v.scanDate) body.scanDate = v.scanDate.toISOString();
  if (v.dentistId) body.dentistId = v.dentistId;
  if (v.memo?.trim()) body.memo = v.memo.trim();
  return body;
}

function toValues(c: CaseDetail): Values {
  return {
    name: c.name,
    patientName: c.patientName,
    patientId: c.patientId ?? undefined,
    birthDate: c.birthDate ? dayjs(c.birthDate) : null,
    scanDate: c.scanDate ? dayjs(c.scanDate) : null,
    dentistId: c.dentist?.id ?? null,
    treatments: [...c.treatments],
    memo: c.memo ?? undefined,
  };
}

/** New case, or edit of `initial`. */
export function CaseFormModal({
  open,
  initial,
  onClose,
  onSaved,
}: {
  open: boolean;
  initial?: CaseDetail | null;
  onClose: () => void;
  onSaved: (c: CaseDetail) => void;
}) {
  const { t } = useTranslation('cases');
  const [form] = Form.useForm<Values>();
  const dentists = useQuery({ ...listDentistsQuery(), enabled: open });
  useBackClose(open, onClose);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (initial) form.setFieldsValue(toValues(initial));
  }, [open, initial, form]);

  // The hook refreshes the case's orders and the dashboard too (they show its name and patient).
  const save = useSaveCase({ onSuccess: (c) => onSaved(c) });

  const required = { required: true, whitespace: true, message: t('common:required') };
  return (
    <Modal
      open={open}
      title={initial ? t('form.editTitle') : t('form.newTitle')}
      onCancel={onClose}
      okText={t('common:save')}
      cancelText={t('common:cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'case-form-submit' }}
      onOk={() => form.submit()}
      destroyOnHidden
      width={640}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate({ caseCode: initial?.caseCode, input: toCaseInput(v) })}
        data-testid="case-form"
      >
        <Form.Item
          name="name"
          label={t('field.name')}
          rules={[required, { max: CASE_NAME_MAX, message: t('common:tooLong', { n: CASE_NAME_MAX }) }]}
        >
          <Input data-testid="case-form-name" />
        </Form.Item>
        <Form.Item
          name="patientName"
          label={t('field.patientName')}
          rules={[required, { max: FIELD_MAX.name, message: t('common:tooLong', { n: FIELD_MAX.name }) }]}
        >
          <Input data-testid="case-form-patientName" />
        </Form.Item>
        <Form.Item
          name="patientId"
          label={t('field.patientId')}
          rules={[{ max: FIELD_MAX.code, message: t('common:tooLong', { n: FIELD_MAX.code }) }]}
        >
          <Input data-testid="case-form-patientId" />
        </Form.Item>
        <Form.Item name="birthDate" label={t('field.birthDate')}>
          <DatePicker
            data-testid="case-form-birthDate"
            style={{ width: '100%' }}
            format="YYYY-MM-DD"
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          />
        </Form.Item>
        <Form.Item name="scanDate" label={t('field.scanDate')}>
          <DatePicker data-testid="case-form-scanDate" style={{ width: '100%' }} showTime format="YYYY-MM-DD HH:mm" />
        </Form.Item>
        <Form.Item name="dentistId" label={t('field.dentist')}>
          <Select
            {...searchable}
            data-testid="case-form-dentistId"
            allowClear
            loading={listLoading(dentists)}
            options={(dentists.data?.list ?? []).map((d) => ({ value: d.id, label: d.name }))}
          />
        </Form.Item>
        <Form.Item name="treatments" label={t('field.treatments')}>
          <Select
            {...searchable}
            data-testid="case-form-treatments"
            mode="multiple"
            allowClear
            options={TREATMENTS.map((tr) => ({ value: tr, label: t(`treatment.${tr}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="memo"
          label={t('field.memo')}
          rules={[{ max: 2000, message: t('common:tooLong', { n: 2000 }) }]}
        >
          <Input.TextArea data-testid="case-form-memo" rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
