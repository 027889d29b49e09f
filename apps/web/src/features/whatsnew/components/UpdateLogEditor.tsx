import { useEffect, useState } from 'react';
import { Button, Form, Input, Modal, Select, Space, Tabs } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  LANGUAGES,
  LANGUAGE_NAMES,
  UPDATE_LOG_LIMITS,
  type Language,
  type SaveUpdateLogBody,
  type UpdateLogTexts,
} from '@portal/contracts';
import { localToday } from '../../../lib/dates';
import { notify } from '../../../lib/notify';
import { whatsNewKeys } from '../api/keys';
import { getUpdateLogDetail } from '../api/updateLog';
import { useSaveUpdateLog } from '../api/useUpdateLogMutations';
import { searchable } from '../../../lib/selectSearch';

interface FormValues {
  version: string;
  releaseDate: string;
  texts: Partial<Record<Language, { title?: string; markdown?: string }>>;
}

/** Writes or edits an entry: a version, a date and, per language, a title and Markdown (English required). */
export function UpdateLogEditor({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('whatsnew');
  const [form] = Form.useForm<FormValues>();
  const [languages, setLanguages] = useState<Language[]>(['en']);
  const [active, setActive] = useState<Language>('en');
  const detail = useQuery({
    queryKey: whatsNewKeys.adminDetail(id ?? 0),
    queryFn: () => getUpdateLogDetail(id!),
    enabled: id !== null,
  });

  useEffect(() => {
    if (!detail.data) return;
    const texts: FormValues['texts'] = {};
    for (const text of detail.data.texts) texts[text.language] = { title: text.title, markdown: text.markdown };
    form.setFieldsValue({ version: detail.data.version, releaseDate: detail.data.releaseDate, texts });
    setLanguages(detail.data.texts.map((text) => text.language));
  }, [detail.data, form]);

  const save = useSaveUpdateLog({
    onSuccess: () => {
      notify.success(t('admin.saved'));
      onClose();
    },
  });

  const submit = (values: FormValues) => {
    const text = (language: Language) => ({
      title: values.texts?.[language]?.title ?? '',
      markdown: values.texts?.[language]?.markdown ?? '',
    });
    const texts = Object.fromEntries(languages.map((l) => [l, text(l)])) as UpdateLogTexts;
    const body: SaveUpdateLogBody = {
      ...(id ? { id } : {}),
      version: values.version,
      releaseDate: values.releaseDate,
      texts,
    };
    save.mutate(body);
  };

  const addable = LANGUAGES.filter((l) => !languages.includes(l));
  return (
    <Modal
      open
      width={760}
      title={id ? t('admin.edit') : t('admin.new')}
      onCancel={onClose}
      okText={t('admin.save')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'update-log-save' }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ releaseDate: localToday(), texts: {} }}
        onFinish={submit}
        onFinishFailed={({ errorFields }) => {
          const lang = errorFields[0]?.name[1];
          if (typeof lang === 'string' && languages.includes(lang as Language)) setActive(lang as Language);
        }}
        data-testid="update-log-form"
      >
        <Space wrap>
          <Form.Item name="version" label={t('admin.version')} rules={[{ required: true, whitespace: true }]}>
            <Input maxLength={UPDATE_LOG_LIMITS.version} data-testid="update-log-version" />
          </Form.Item>
          <Form.Item name="releaseDate" label={t('admin.date')} rules={[{ required: true }]}>
            <Input type="date" data-testid="update-log-date" />
          </Form.Item>
          <Form.Item label={t('admin.addLanguage')}>
            <Select<Language>
              {...searchable}
              style={{ width: 180 }}
              value={null}
              placeholder={t('admin.addLanguage')}
              aria-label={t('admin.addLanguage')}
              options={addable.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
              onChange={(l) => {
                setLanguages([...languages, l]);
                setActive(l);
              }}
              data-testid="update-log-add-language"
            />
          </Form.Item>
        </Space>
        <Tabs
          activeKey={active}
          onChange={(key) => setActive(key as Language)}
          items={languages.map((language) => ({
            key: language,
            forceRender: true,
            label: (
              <span data-testid={`update-log-tab-${language}`}>
                {LANGUAGE_NAMES[language]}
                {language === 'en' ? ' *' : null}
              </span>
            ),
            children: (
              <>
                <Form.Item
                  name={['texts', language, 'title']}
                  label={t('admin.entryTitle')}
                  rules={[{ required: true, whitespace: true }]}
                >
                  <Input maxLength={UPDATE_LOG_LIMITS.title} data-testid={`update-log-title-${language}`} />
                </Form.Item>
                <Form.Item
                  name={['texts', language, 'markdown']}
                  label={t('admin.markdown')}
                  extra={t('admin.markdownHint')}
                  rules={[{ required: true, whitespace: true }]}
                >
                  <Input.TextArea
                    rows={10}
                    maxLength={UPDATE_LOG_LIMITS.markdown}
                    data-testid={`update-log-markdown-${language}`}
                  />
                </Form.Item>
                {language !== 'en' ? (
                  <Button
                    danger
                    onClick={() => {
                      setLanguages(languages.filter((l) => l !== language));
                      setActive('en');
                    }}
                  >
                    {t('admin.removeLanguage')}
                  </Button>
                ) : null}
              </>
            ),
          }))}
        />
      </Form>
    </Modal>
  );
}
