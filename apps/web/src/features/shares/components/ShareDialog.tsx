import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Form, Input, Modal, Radio, Select, Space, Typography } from 'antd';
import { CopyOutlined, DownloadOutlined, MailOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX, LANGUAGES, LANGUAGE_NAMES, SHARE_PASSWORD, type Language } from '@portal/contracts';
import { mailShare, type ShareItem, type ShareableType } from '../api/shares';
import { useCreateShare } from '../api/useShareMutations';
import { notify } from '../../../lib/notify';
import { RemainingDays } from './RemainingDays';
import { sayIfRefused } from '../../../lib/refusal';
import { searchable } from '../../../lib/selectSearch';

const EXPIRY_CHOICES = ['1', '7', '30', 'never'] as const;
type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

interface Options {
  password?: string;
  expiry: ExpiryChoice;
  showPatientName: boolean;
}

/** The link as a QR code (PNG data URL), made by the `qrcode` library when the link is shown. */
function useQrCode(url: string | undefined) {
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setDataUrl(null);
    if (!url) return;
    void import('qrcode').then(({ toDataURL }) =>
      toDataURL(url, { width: 240, margin: 2, errorCorrectionLevel: 'M' }).then((made) => {
        if (live) setDataUrl(made);
      }),
    );
    return () => {
      live = false;
    };
  }, [url]);
  return dataUrl;
}

interface MailForm {
  email: string;
  name?: string;
  language: Language;
}

/** What the dialog shows once the link exists: copy, QR code (PNG), and send by email. */
function ShareResult({ share }: { share: ShareItem }) {
  const { t, i18n } = useTranslation('shares');
  const qr = useQrCode(share.url);
  const [form] = Form.useForm<MailForm>();
  const mail = useMutation({
    mutationFn: (v: MailForm) => mailShare(share.shareCode, v),
    onSuccess: () => {
      notify.success(t('dialog.mailSent'));
      form.resetFields(['email', 'name']);
    },
    onError: sayIfRefused,
  });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(share.url);
      notify.success(t('dialog.copied'));
    } catch {
      notify.error(t('dialog.copyFailed'));
    }
  };
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="share-result">
      <RemainingDays share={share} />
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={share.url} aria-label={t('dialog.link')} data-testid="share-link" />
        <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copy()} data-testid="share-copy">
          {t('dialog.copy')}
        </Button>
      </Space.Compact>
      {share.hasPassword ? <Alert type="info" showIcon title={t('dialog.passwordNote')} /> : null}
      <div style={{ textAlign: 'center' }}>
        {qr ? (
          <>
            <img src={qr} alt={t('dialog.qrAlt')} width={200} height={200} data-testid="share-qr" />
            <div>
              <Button
                icon={<DownloadOutlined aria-hidden />}
                href={qr}
                download={`share-${share.resourceType}.png`}
                data-testid="share-qr-download"
              >
                {t('dialog.downloadQr')}
              </Button>
            </div>
          </>
        ) : null}
      </div>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ language: (LANGUAGES as readonly string[]).includes(i18n.language) ? i18n.language : 'en' }}
        onFinish={(v) => mail.mutate(v)}
      >
        <Typography.Text strong>{t('dialog.sendByEmail')}</Typography.Text>
        <Form.Item
          name="email"
          label={t('dialog.email')}
          rules={[{ required: true, type: 'email', message: t('dialog.emailInvalid') }]}
        >
          <Input type="email" autoComplete="email" data-testid="share-mail-to" />
        </Form.Item>
        <Form.Item name="name" label={t('dialog.recipientName')} extra={t('dialog.recipientNameHelp')}>
          <Input autoComplete="off" maxLength={FIELD_MAX.name} data-testid="share-mail-name" />
        </Form.Item>
        <Form.Item name="language" label={t('dialog.language')}>
          <Select
            {...searchable}
            options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
            data-testid="share-mail-language"
          />
        </Form.Item>
        <Button
          htmlType="submit"
          icon={<MailOutlined aria-hidden />}
          loading={mail.isPending}
          data-testid="share-mail-send"
        >
          {t('dialog.send')}
        </Button>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('dialog.mailNoPassword')}
        </Typography.Paragraph>
      </Form>
    </Space>
  );
}

const DIALOG_TITLES: Record<ShareableType, string> = {
  case: 'dialog.titleCase',
  order: 'dialog.titleOrder',
  report: 'dialog.titleReport',
};
/** A report goes to its patient: it names them and lasts a month; a case or an order goes to a colleague for a week. */
const INITIAL_OPTIONS: Record<ShareableType, Options> = {
  case: { expiry: '7', showPatientName: false },
  order: { expiry: '7', showPatientName: false },
  report: { expiry: '30', showPatientName: true },
};

/** Makes a share link of a case, an order or a report: options first, then the link with its channels. */
export function ShareDialog({
  open,
  onClose,
  resourceType,
  resourceCode,
}: {
  open: boolean;
  onClose: () => void;
  resourceType: ShareableType;
  resourceCode: string;
}) {
  const { t } = useTranslation('shares');
  const [form] = Form.useForm<Options>();
  const [made, setMade] = useState<ShareItem | null>(null);
  const create = useCreateShare({ onSuccess: (share) => setMade(share) });
  const close = () => {
    setMade(null);
    form.resetFields();
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t(DIALOG_TITLES[resourceType])}
      onCancel={close}
      destroyOnHidden
      width="min(520px, 95vw)"
      footer={
        made ? (
          <Button type="primary" onClick={close}>
            {t('dialog.done')}
          </Button>
        ) : (
          <Space>
            <Button onClick={close}>{t('dialog.cancel')}</Button>
            <Button type="primary" loading={create.isPending} onClick={() => form.submit()} data-testid="share-create">
              {t('dialog.create')}
            </Button>
          </Space>
        )
      }
    >
      {made ? (
        <ShareResult share={made} />
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={INITIAL_OPTIONS[resourceType]}
          onFinish={(v) =>
            create.mutate({
              resourceType,
              resourceCode,
              password: v.password || undefined,
              expiresInDays: v.expiry === 'never' ? null : (Number(v.expiry) as 1 | 7 | 30),
              showPatientName: v.showPatientName,
            })
          }
          data-testid="share-options"
        >
          <Form.Item
            name="password"
            label={t('dialog.password')}
            extra={t('dialog.passwordHelp', { min: SHARE_PASSWORD.min })}
            rules={[
              { min: SHARE_PASSWORD.min, max: SHARE_PASSWORD.max, message: t('dialog.passwordLength', SHARE_PASSWORD) },
            ]}
          >
            <Input.Password autoComplete="new-password" data-testid="share-password" />
          </Form.Item>
          <Form.Item name="expiry" label={t('dialog.expiry')}>
            <Radio.Group
              optionType="button"
              options={EXPIRY_CHOICES.map((c) => ({
                value: c,
                label: t(`dialog.expiry_${c}`),
              }))}
              data-testid="share-expiry"
            />
          </Form.Item>
          <Form.Item name="showPatientName" valuePropName="checked" extra={t('dialog.patientNameHelp')}>
            <Checkbox data-testid="share-patient-name">{t('dialog.showPatientName')}</Checkbox>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
