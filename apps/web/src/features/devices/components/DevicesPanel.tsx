import { useState } from 'react';
import { Button, Card, Form, Input, Modal, Progress, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import EditOutlined from '@ant-design/icons/EditOutlined';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { FIELD_MAX } from '@portal/contracts';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { activateDevice } from '../api/activateDevice';
import { editDeviceName } from '../api/editDeviceName';
import { listDevicesQuery, type Device, type DeviceQuery } from '../api/listDevices';

const STATUS_COLORS: Record<string, string> = {
  Activated: 'green',
  DataTransferring: 'processing',
  DataTransferred: 'cyan',
  InActiveted: 'default',
  Disabled: 'red',
  Canceled: 'orange',
};

/** Own space › Scanners: the organization's scanners, rename, and binding a new one. */
export default function DevicesPanel() {
  const { t } = useTranslation('devices');
  const qc = useQueryClient();
  const [query, setQuery] = useState<DeviceQuery>({ pageNum: 1, pageSize: 10 });
  const [keyword, setKeyword] = useState('');
  const [renaming, setRenaming] = useState<Device | null>(null);
  const [nameForm] = Form.useForm<{ name: string }>();
  const [activateForm] = Form.useForm<{ serialNumber: string; activationCode: string }>();
  const list = useQuery(listDevicesQuery(query));
  useBackClose(renaming !== null, () => setRenaming(null));

  const refresh = () => void qc.invalidateQueries({ queryKey: ['devices'] });
  const rename = useMutation({
    mutationFn: editDeviceName,
    onSuccess: () => {
      notify.success(t('common:saved'));
      setRenaming(null);
      refresh();
    },
  });
  const activate = useMutation({
    mutationFn: activateDevice,
    onSuccess: () => {
      notify.success(t('activated'));
      activateForm.resetFields();
      refresh();
    },
  });

  const columns: ColumnsType<Device> = [
    { title: t('serialNumber'), dataIndex: 'serialNumber' },
    {
      title: t('name'),
      key: 'name',
      render: (_, d) => (
        <Space>
          <span>{d.name ?? ''}</span>
          <Button
            size="small"
            type="text"
            icon={<EditOutlined />}
            aria-label={t('rename')}
            data-testid={`device-rename-${d.serialNumber}`}
            onClick={() => {
              nameForm.setFieldsValue({ name: d.name ?? '' });
              setRenaming(d);
            }}
          />
        </Space>
      ),
    },
    { title: t('model'), dataIndex: 'model' },
    {
      title: t('status'),
      dataIndex: 'status',
      render: (v: string) => <Tag color={STATUS_COLORS[v] ?? 'default'}>{t(`statusName.${v}`, { defaultValue: v })}</Tag>,
    },
    { title: t('localSave'), dataIndex: 'localSave', render: (v: boolean) => (v ? <Tag color="green">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>) },
    { title: t('cloudSave'), dataIndex: 'cloudSave', render: (v: boolean) => (v ? <Tag color="green">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>) },
    { title: t('limitType'), dataIndex: 'limitType', render: (v: number) => t(`limit.${v}`, { defaultValue: String(v) }) },
    { title: t('warrantyDate'), dataIndex: 'warrantyDate', render: (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD') : '') },
    {
      title: t('batteryHealth'),
      dataIndex: 'batteryHealth',
      render: (v: number | null) => (v == null ? '' : <Progress percent={v} size="small" style={{ width: 120 }} status={v < 30 ? 'exception' : 'normal'} />),
    },
    { title: t('lastSeenAt'), dataIndex: 'lastSeenAt', render: (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '') },
  ];

  const required = { required: true, whitespace: true, message: t('common:required') };
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('title')} data-testid="device-panel">
        <Input
          allowClear
          placeholder={t('search')}
          style={{ maxWidth: 280, marginBottom: 16 }}
          data-testid="device-search"
          value={keyword}
          onChange={(e) => {
            setKeyword(e.target.value);
            if (!e.target.value) setQuery({ ...query, pageNum: 1, keyword: undefined });
          }}
          onPressEnter={() => setQuery({ ...query, pageNum: 1, keyword: keyword.trim() || undefined })}
        />
        <Table<Device>
          rowKey="serialNumber"
          size="middle"
          scroll={{ x: 'max-content' }}
          loading={list.isFetching}
          columns={columns}
          dataSource={list.data?.list ?? []}
          onRow={(d) => ({ 'data-testid': `device-row-${d.serialNumber}`, 'data-name': d.name ?? '' }) as React.HTMLAttributes<HTMLElement>}
          pagination={{
            current: query.pageNum,
            pageSize: query.pageSize,
            total: list.data?.total ?? 0,
            onChange: (pageNum, pageSize) => setQuery({ ...query, pageNum, pageSize }),
          }}
        />
      </Card>
      <Card title={t('activateTitle')}>
        <Form form={activateForm} layout="inline" onFinish={(v) => activate.mutate({ serialNumber: v.serialNumber.trim(), activationCode: v.activationCode.trim() })}>
          <Form.Item name="serialNumber" label={t('serialNumber')} rules={[required, { max: FIELD_MAX.code, message: t('common:tooLong', { n: FIELD_MAX.code }) }]}>
            <Input data-testid="device-activate-serial" />
          </Form.Item>
          <Form.Item name="activationCode" label={t('activationCode')} rules={[required, { max: FIELD_MAX.code, message: t('common:tooLong', { n: FIELD_MAX.code }) }]}>
            <Input data-testid="device-activate-code" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={activate.isPending} data-testid="device-activate-submit">
              {t('activate')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
      <Modal
        open={renaming !== null}
        title={t('rename')}
        okText={t('common:save')}
        cancelText={t('common:cancel')}
        okButtonProps={{ loading: rename.isPending, 'data-testid': 'device-rename-save' }}
        onOk={() => nameForm.submit()}
        onCancel={() => setRenaming(null)}
        forceRender
      >
        <Form form={nameForm} layout="vertical" onFinish={(v) => renaming && rename.mutate({ serialNumber: renaming.serialNumber, name: v.name.trim() })}>
          <Form.Item name="name" label={t('name')} rules={[required, { max: FIELD_MAX.name, message: t('common:tooLong', { n: FIELD_MAX.name }) }]}>
            <Input data-testid="device-rename-input" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
