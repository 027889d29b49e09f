import { useState } from 'react';
import { Button, Card, Empty, Form, Input, Modal, Popconfirm, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CONTACT_VERIFICATION_VALIDITY_DAYS, FIELD_MAX, Permission } from '@portal/contracts';
import { Access } from '../../../components/Access';
import { ApiError, errorText } from '../../../lib/http';
import { formatDateTime } from '../../../lib/dates';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { contactsQuery, type CompanyContact } from '../api/contacts';
import { useAddContact, useDeleteContact, useResendContactMail } from '../api/useAccountMutations';

const STATUS_COLOR = { pending: 'processing', verified: 'success', expired: 'warning' } as const;

/** Own space → contacts: people outside the portal who receive the organization's order mails once verified. */
export default function ContactsPanel() {
  const { t } = useTranslation('account');
  const list = useQuery(contactsQuery());
  const [adding, setAdding] = useState(false);
  const [form] = Form.useForm<{ userName: string; email: string }>();
  useBackClose(adding, () => setAdding(false));

  const add = useAddContact({
    onSuccess: (c) => {
      notify.success(t('contacts.added', { email: c.email }));
      setAdding(false);
    },
    onError: (err) => {
      if (!(err instanceof ApiError)) return;
      const field = (err.data as { field?: string } | null)?.field === 'userName' ? 'userName' : 'email';
      form.setFields([{ name: field, errors: [errorText(err.code, err.msg) ?? ''] }]);
    },
  });
  const resend = useResendContactMail({ onSuccess: (c) => notify.success(t('contacts.resent', { email: c.email })) });
  const remove = useDeleteContact({ onSuccess: () => notify.success(t('contacts.deleted')) });

  const columns: ColumnsType<CompanyContact> = [
    { title: t('contacts.userName'), dataIndex: 'userName' },
    { title: t('contacts.email'), dataIndex: 'email' },
    {
      title: t('contacts.status'),
      dataIndex: 'status',
      render: (status: CompanyContact['status'], c) => (
        <Tag color={STATUS_COLOR[status]} data-testid={`contact-status-${c.email}`}>
          {t(`contacts.statuses.${status}`)}
        </Tag>
      ),
    },
    {
      title: t('contacts.since'),
      key: 'since',
      render: (_, c) =>
        c.verifiedAt
          ? t('contacts.verifiedAt', { time: formatDateTime(c.verifiedAt) })
          : t('contacts.linkUntil', { time: formatDateTime(c.linkExpiresAt) }),
    },
    {
      title: t('contacts.action'),
      key: 'action',
      // Adding, mailing again and deleting are contact:manage; a role that only reads sees the list.
      render: (_, c) => (
        <Access permission={Permission.ContactManage}>
          <Space>
            {c.status === 'verified' ? null : (
              <Button
                size="small"
                loading={resend.isPending && resend.variables === c.contactCode}
                onClick={() => resend.mutate(c.contactCode)}
                data-testid={`contact-resend-${c.email}`}
              >
                {t('contacts.resend')}
              </Button>
            )}
            <Popconfirm
              title={t('contacts.deleteConfirm', { email: c.email })}
              onConfirm={() => remove.mutate(c.contactCode)}
              okButtonProps={{ danger: true }}
            >
              <Button size="small" danger data-testid={`contact-delete-${c.email}`}>
                {t('contacts.delete')}
              </Button>
            </Popconfirm>
          </Space>
        </Access>
      ),
    },
  ];

  return (
    <Card
      title={t('contacts.title')}
      data-testid="own-contacts"
      extra={
        <Access permission={Permission.ContactManage}>
          <Button
            type="primary"
            icon={<PlusOutlined aria-hidden />}
            onClick={() => {
              form.resetFields();
              setAdding(true);
            }}
            data-testid="contact-add"
          >
            {t('contacts.add')}
          </Button>
        </Access>
      }
    >
      <p>{t('contacts.explain', { days: CONTACT_VERIFICATION_VALIDITY_DAYS })}</p>
      <Table<CompanyContact>
        rowKey="contactCode"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('contacts.empty')} /> }}
      />
      <Modal
        open={adding}
        title={t('contacts.add')}
        onCancel={() => setAdding(false)}
        onOk={() => form.submit()}
        okButtonProps={{ loading: add.isPending, 'data-testid': 'contact-add-save' }}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) => add.mutate({ userName: v.userName.trim(), email: v.email.trim() })}
        >
          <Form.Item
            name="userName"
            label={t('contacts.userName')}
            rules={[{ required: true, whitespace: true, message: t('common:required') }]}
          >
            <Input maxLength={FIELD_MAX.name} data-testid="contact-userName" />
          </Form.Item>
          <Form.Item
            name="email"
            label={t('contacts.email')}
            rules={[{ required: true, type: 'email', message: t('common:emailInvalid') }]}
          >
            <Input type="email" maxLength={FIELD_MAX.email} data-testid="contact-email" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
