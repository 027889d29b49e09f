import { useEffect, useState } from 'react';
import { Button, Card, Form, Input, Modal, Popconfirm, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX } from '@portal/contracts';
import { ApiError, errorText } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { listDentistsQuery, type Dentist } from '../api/listDentists';
import { useDeleteDentist, useSaveDentist } from '../api/useDentistMutations';
import { listLoading } from '../../../lib/listLoading';

/** A name clash: HTTP 409 (or code 409) from dentist/save. */
export function isNameTaken(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 409 || err.code === 409);
}

/** Own space › Dentist management: list, add, rename, delete. */
export default function DentistPanel() {
  const { t } = useTranslation('dentists');
  const list = useQuery(listDentistsQuery());
  const [editing, setEditing] = useState<Dentist | 'new' | null>(null);
  const [form] = Form.useForm<{ name: string }>();
  useBackClose(editing !== null, () => setEditing(null));

  useEffect(() => {
    if (editing === null) return;
    form.resetFields();
    if (editing !== 'new') form.setFieldsValue({ name: editing.name });
  }, [editing, form]);

  const save = useSaveDentist({
    onSuccess: () => {
      notify.success(t('common:saved'));
      setEditing(null);
    },
    onError: (err) => {
      if (isNameTaken(err)) {
        form.setFields([{ name: 'name', errors: [t('nameTaken')] }]);
      } else if (err instanceof ApiError) {
        const text = errorText(err.code, err.msg);
        if (text) form.setFields([{ name: 'name', errors: [text] }]);
      }
    },
  });
  const remove = useDeleteDentist({ onSuccess: () => notify.success(t('deleted')) });

  const columns: ColumnsType<Dentist> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('caseCount'), dataIndex: 'caseCount' },
    {
      title: t('actions'),
      key: 'actions',
      render: (_, d) => (
        <Space>
          <Button size="small" data-testid={`dentist-edit-${d.id}`} onClick={() => setEditing(d)}>
            {t('edit')}
          </Button>
          <Popconfirm
            title={t('deleteConfirm', { name: d.name })}
            okText={t('delete')}
            cancelText={t('common:cancel')}
            okButtonProps={{ danger: true, 'data-testid': 'dentist-delete-confirm' }}
            onConfirm={() => remove.mutateAsync(d.id)}
          >
            <Button size="small" danger data-testid={`dentist-delete-${d.id}`}>
              {t('delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('title')}
      data-testid="dentist-panel"
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          data-testid="dentist-add"
          onClick={() => setEditing('new')}
        >
          {t('add')}
        </Button>
      }
    >
      <Table<Dentist>
        rowKey="id"
        size="middle"
        loading={listLoading(list)}
        columns={columns}
        dataSource={list.data?.list ?? []}
        pagination={false}
        onRow={(d) =>
          ({ 'data-testid': `dentist-row-${d.id}`, 'data-name': d.name }) as React.HTMLAttributes<HTMLElement>
        }
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? t('add') : t('edit')}
        okText={t('common:save')}
        cancelText={t('common:cancel')}
        okButtonProps={{ loading: save.isPending, 'data-testid': 'dentist-save' }}
        onOk={() => form.submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) => {
            const name = v.name.trim();
            save.mutate(editing && editing !== 'new' ? { id: editing.id, name } : { name });
          }}
        >
          <Form.Item
            name="name"
            label={t('name')}
            rules={[
              { required: true, whitespace: true, message: t('nameRequired') },
              { max: FIELD_MAX.name, message: t('common:tooLong', { n: FIELD_MAX.name }) },
            ]}
          >
            <Input data-testid="dentist-name" autoFocus />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
