import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Descriptions, Dropdown, Form, Input, Modal, Space, Typography } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { ERASURE_LIMITS, type CaseDetail, type CaseSummary } from '@portal/contracts';
import { notify } from '../../../lib/notify';
import { listCases } from '../api/listCases';
import { caseKeys } from '../api/keys';
import type { Certificate } from '../api/erasure';
import { saveCertificate } from './ErasureCertificates';
import { useEraseCases, useLegalHold } from '../api/useCaseMutations';
import { CASE_LIST_PATH } from '../lib/paths';

/** What the erasure dialog needs of the case it starts from: a live case's page, or a row of the recycle bin. */
type ErasableCase = Pick<CaseDetail, 'caseCode' | 'name' | 'patientName' | 'patientId' | 'birthDate'>;

/** The same patient's live cases: by patient ID when the case has one, else by name and birth date. */
function samePatient(c: ErasableCase) {
  return (o: { patientId: string | null; patientName: string; birthDate: string | null }) =>
    c.patientId
      ? o.patientId === c.patientId
      : o.patientName === c.patientName && (o.birthDate ?? null) === (c.birthDate ?? null);
}

/**
 * The clinic administrator's patient-data actions on a case: a legal hold (set with its reason, released), and the
 * erasure of the patient's cases with the certificate it answers (docs/product-decisions.md).
 */
export function PatientDataActions({ c }: { c: CaseDetail }) {
  const { t } = useTranslation('cases');
  const [dialog, setDialog] = useState<'hold' | 'erase' | null>(null);
  const [certificate, setCertificate] = useState<Certificate | null>(null);
  const release = useLegalHold({ onSuccess: () => notify.success(t('erasure.holdReleased')) });
  const items = [
    c.legalHold ? { key: 'release', label: t('erasure.releaseHold') } : { key: 'hold', label: t('erasure.setHold') },
    // A held case cannot be erased: the action is not offered.
    ...(c.legalHold ? [] : [{ key: 'erase', label: t('erasure.erase'), danger: true }]),
  ];
  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items,
          onClick: ({ key }) => {
            if (key === 'release') release.mutate({ caseCode: c.caseCode, reason: null });
            else setDialog(key as 'hold' | 'erase');
          },
        }}
      >
        <Button data-testid="case-patient-data">
          <Space>
            {t('erasure.menu')}
            <DownOutlined aria-hidden />
          </Space>
        </Button>
      </Dropdown>
      {dialog === 'hold' && <HoldDialog c={c} onClose={() => setDialog(null)} />}
      {dialog === 'erase' && (
        <EraseDialog
          c={c}
          onClose={() => setDialog(null)}
          onDone={(done) => {
            setDialog(null);
            setCertificate(done);
          }}
        />
      )}
      {certificate && <CertificateDialog certificate={certificate} />}
    </>
  );
}

function HoldDialog({ c, onClose }: { c: CaseDetail; onClose: () => void }) {
  const { t } = useTranslation('cases');
  const [form] = Form.useForm<{ reason: string }>();
  const hold = useLegalHold({
    onSuccess: () => {
      notify.success(t('erasure.holdSet'));
      onClose();
    },
  });
  return (
    <Modal
      open
      title={t('erasure.holdTitle')}
      okText={t('erasure.setHold')}
      cancelText={t('common:cancel')}
      okButtonProps={{ loading: hold.isPending, 'data-testid': 'legal-hold-confirm' }}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph>{t('erasure.holdHint')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => hold.mutate({ caseCode: c.caseCode, reason: v.reason.trim() })}
      >
        <Form.Item
          name="reason"
          label={t('erasure.holdReason')}
          rules={[{ required: true, whitespace: true, message: t('erasure.reasonRequired') }]}
        >
          <Input.TextArea maxLength={ERASURE_LIMITS.reasonChars} data-testid="legal-hold-reason" autoSize />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The erasure of a case in the recycle bin (with the patient's live cases if chosen), for the clinic administrator;
 * not offered for a case under a legal hold. The erased row leaves the bin, so the page shows the certificate.
 */
export function ErasePatientButton({ c, onErased }: { c: CaseSummary; onErased: (done: Certificate) => void }) {
  const { t } = useTranslation('cases');
  const [open, setOpen] = useState(false);
  if (c.held) return null;
  return (
    <>
      <Button size="small" danger data-testid="recycle-erase" onClick={() => setOpen(true)}>
        {t('erasure.erase')}
      </Button>
      {open && (
        <EraseDialog
          c={c}
          onClose={() => setOpen(false)}
          onDone={(done) => {
            setOpen(false);
            onErased(done);
          }}
        />
      )}
    </>
  );
}

function EraseDialog({
  c,
  onClose,
  onDone,
}: {
  c: ErasableCase;
  onClose: () => void;
  onDone: (certificate: Certificate) => void;
}) {
  const { t } = useTranslation('cases');
  const keyword = c.patientId ?? c.patientName;
  const patientCases = useQuery({
    queryKey: caseKeys.patient(keyword),
    queryFn: () => listCases({ keyword, pageNum: 1, pageSize: 100, sortField: 'scanDate', sortOrder: 'desc' }),
    select: (page) => page.list.filter(samePatient(c)),
  });
  const [chosen, setChosen] = useState<string[]>([c.caseCode]);
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  const erase = useEraseCases({ onSuccess: onDone });
  const ready = chosen.length > 0 && reason.trim() !== '' && typed.trim() === c.patientName.trim();
  return (
    <Modal
      open
      title={t('erasure.title', { name: c.patientName })}
      okText={t('erasure.confirm', { count: chosen.length })}
      cancelText={t('common:cancel')}
      okButtonProps={{ danger: true, disabled: !ready, loading: erase.isPending, 'data-testid': 'erase-confirm' }}
      onOk={() => erase.mutate({ caseCodes: chosen, reason: reason.trim() })}
      onCancel={onClose}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Alert type="warning" showIcon title={t('erasure.warning')} />
        <Typography.Text strong>{t('erasure.cases')}</Typography.Text>
        <Checkbox.Group
          value={chosen}
          onChange={(v) => setChosen(v)}
          data-testid="erase-cases"
          // The case it starts from first (a binned one is not among the live cases), then the patient's others.
          options={[c, ...(patientCases.data ?? []).filter((o) => o.caseCode !== c.caseCode)].map((o) => ({
            value: o.caseCode,
            label: o.name,
          }))}
        />
        <label htmlFor="erase-reason">{t('erasure.reason')}</label>
        <Input.TextArea
          id="erase-reason"
          data-testid="erase-reason"
          maxLength={ERASURE_LIMITS.reasonChars}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder={t('erasure.reasonHint')}
          autoSize
        />
        <label htmlFor="erase-typed">{t('erasure.typeName', { name: c.patientName })}</label>
        <Input id="erase-typed" data-testid="erase-typed" value={typed} onChange={(e) => setTyped(e.target.value)} />
      </Space>
    </Modal>
  );
}

export function CertificateDialog({ certificate }: { certificate: Certificate }) {
  const { t } = useTranslation('cases');
  const navigate = useNavigate();
  const sum = (pick: (c: Certificate['cases'][number]) => number) => certificate.cases.reduce((n, c) => n + pick(c), 0);
  const orders = certificate.cases.flatMap((c) => c.orderCodes);
  return (
    <Modal
      open
      title={t('erasure.doneTitle')}
      okText={t('erasure.toList')}
      okButtonProps={{ 'data-testid': 'erasure-done' }}
      cancelText={t('erasure.download')}
      cancelButtonProps={{ onClick: () => saveCertificate(certificate) }}
      closable={false}
      onOk={() => void navigate(CASE_LIST_PATH, { replace: true })}
    >
      <Descriptions column={1} size="small" data-testid="erasure-certificate">
        <Descriptions.Item label={t('erasure.code')}>{certificate.erasureCode}</Descriptions.Item>
        <Descriptions.Item label={t('erasure.casesErased')}>{certificate.cases.length}</Descriptions.Item>
        <Descriptions.Item label={t('erasure.filesErased')}>{sum((c) => c.files)}</Descriptions.Item>
        <Descriptions.Item label={t('erasure.reportsErased')}>{sum((c) => c.reports)}</Descriptions.Item>
        <Descriptions.Item label={t('erasure.sharesErased')}>{sum((c) => c.shares)}</Descriptions.Item>
        <Descriptions.Item label={t('erasure.exportsErased')}>{certificate.exportCodes.length}</Descriptions.Item>
        <Descriptions.Item label={t('erasure.ordersKept')}>{orders.length ? orders.join(', ') : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('erasure.appsAsked')}>
          {certificate.appCodes.length ? certificate.appCodes.join(', ') : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('erasure.webhooksAsked')}>{certificate.webhookEndpoints}</Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
