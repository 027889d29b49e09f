import { useState } from 'react';
import { Button, Card, Form, Input, Modal, Progress, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import EditOutlined from '@ant-design/icons/EditOutlined';
import SafetyCertificateOutlined from '@ant-design/icons/SafetyCertificateOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DEVICE_LOW_BATTERY_PERCENT,
  DEVICE_STATUSES,
  DEVICE_WARRANTY_ENDING_DAYS,
  FIELD_MAX,
  OrgType,
} from '@portal/contracts';
import { Access, useAccess } from '../../../components/Access';
import { notify } from '../../../lib/notify';
import { useListState, useSearchText, usePageInRange } from '../../../lib/listState';
import { useSession } from '../../../lib/session';
import { useBackClose } from '../../../lib/useBackClose';
import { listDevicesQuery, type Device } from '../api/listDevices';
import { useActivateDevice, useAssignDealer, useEditDeviceName } from '../api/useDeviceMutations';
import { deviceListCodec } from '../lib/deviceListCodec';
import { CatalogImportCard } from './CatalogImportCard';
import { CertifiedLabsCard } from './CertifiedLabsCard';
import { DesignatedLabsModal } from './DesignatedLabsModal';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { listLoading } from '../../../lib/listLoading';

const STATUS_COLORS: Record<string, string> = {
  Activated: 'green',
  DataTransferring: 'processing',
  DataTransferred: 'cyan',
  InActiveted: 'default',
  Disabled: 'red',
  Canceled: 'orange',
};

/** Limit types (§3 Device): 1 designated laboratories only, 2 laboratories certified by the OEM, 3 unlimited. */
export const LIMIT_TYPES = { designated: 1, certified: 2, unlimited: 3 } as const;
const LIMIT_COLORS: Record<number, string> = { 1: 'purple', 2: 'blue', 3: 'default' };

/** The list's yes-or-no filters, one per figure of the dealer's and OEM's dashboard (addedThisMonth: the OEM's). */
const DEVICE_CONDITIONS = ['warrantyEnding', 'lowBattery', 'activatedThisMonth', 'addedThisMonth'] as const;
type DeviceCondition = (typeof DEVICE_CONDITIONS)[number];

/**
 * Own space › Scanners: the organization's scanners. Clinics rename and bind (activate) their own;
 * OEMs import their product catalogue and assign scanners to dealers.
 */
export default function DevicesPanel() {
  const { t } = useTranslation('devices');
  const can = useAccess();
  const { user } = useSession();
  // The server lets only a clinic activate scanners and rename the ones it owns.
  const isClinic = user?.organization.type === OrgType.Clinic;
  const isOem = user?.organization.type === OrgType.Oem;
  const canRename = isClinic && can('device:edit');
  const canAssign = can('device:assign');
  const [selected, setSelected] = useState<string[]>([]);
  const [assigning, setAssigning] = useState(false);
  const [assignForm] = Form.useForm<{ dealerCode: string }>();
  const [query, setQuery] = useListState(deviceListCodec);
  const [keyword, setKeyword] = useSearchText(query.keyword);
  const [renaming, setRenaming] = useState<Device | null>(null);
  const [designating, setDesignating] = useState<Device | null>(null);
  const [nameForm] = Form.useForm<{ name: string }>();
  const [activateForm] = Form.useForm<{ serialNumber: string; activationCode: string }>();
  const list = useQuery(listDevicesQuery(query));
  usePageInRange(query, list, (pageNum) => setQuery((s) => ({ ...s, pageNum })));
  useBackClose(renaming !== null, () => setRenaming(null));
  useBackClose(assigning, () => setAssigning(false));

  const rename = useEditDeviceName({
    onSuccess: () => {
      notify.success(t('common:saved'));
      setRenaming(null);
    },
  });
  const activate = useActivateDevice({
    onSuccess: () => {
      notify.success(t('activated'));
      activateForm.resetFields();
    },
  });
  const assign = useAssignDealer({
    onSuccess: (res) => {
      notify.success(t('assign.done', { n: res.count }));
      setAssigning(false);
      setSelected([]);
      assignForm.resetFields();
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
          {canRename ? (
            <Button
              size="small"
              type="text"
              icon={<EditOutlined aria-hidden />}
              aria-label={t('rename')}
              data-testid={`device-rename-${d.serialNumber}`}
              onClick={() => {
                nameForm.setFieldsValue({ name: d.name ?? '' });
                setRenaming(d);
              }}
            />
          ) : null}
        </Space>
      ),
    },
    { title: t('model'), dataIndex: 'model' },
    {
      title: t('status'),
      dataIndex: 'status',
      render: (v: string) => (
        <Tag color={STATUS_COLORS[v] ?? 'default'}>{t(`statusName.${v}`, { defaultValue: v })}</Tag>
      ),
    },
    {
      title: t('localSave'),
      dataIndex: 'localSave',
      render: (v: boolean) => (v ? <Tag color="green">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>),
    },
    {
      title: t('cloudSave'),
      dataIndex: 'cloudSave',
      render: (v: boolean) => (v ? <Tag color="green">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>),
    },
    {
      title: t('limitType'),
      key: 'limitType',
      render: (_, d) => (
        <Space size={4} wrap>
          <Tag
            color={LIMIT_COLORS[d.limitType] ?? 'default'}
            data-testid={`device-limit-${d.serialNumber}`}
            data-limit={d.limitType}
            style={{ marginInlineEnd: 0 }}
          >
            {t(`limit.${d.limitType}`, { defaultValue: String(d.limitType) })}
          </Tag>
          {isClinic && d.limitType === LIMIT_TYPES.designated ? (
            <Button
              size="small"
              type="link"
              icon={<SafetyCertificateOutlined aria-hidden />}
              data-testid={`device-designated-${d.serialNumber}`}
              onClick={() => setDesignating(d)}
            >
              {t('designated.action')}
            </Button>
          ) : null}
        </Space>
      ),
    },
    { title: t('warrantyDate'), dataIndex: 'warrantyDate', render: (v: string | null) => formatDate(v) },
    {
      title: t('batteryHealth'),
      dataIndex: 'batteryHealth',
      render: (v: number | null) =>
        v == null ? (
          ''
        ) : (
          <Progress percent={v} size="small" style={{ width: 120 }} status={v < 30 ? 'exception' : 'normal'} />
        ),
    },
    { title: t('lastSeenAt'), dataIndex: 'lastSeenAt', render: (v: string | null) => formatDateTime(v) },
  ];

  const required = { required: true, whitespace: true, message: t('common:required') };
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('title')} data-testid="device-panel">
        <Space wrap style={{ marginBottom: 16 }}>
          <Input
            allowClear
            placeholder={t('search')}
            style={{ width: 280, maxWidth: '100%' }}
            data-testid="device-search"
            value={keyword}
            onChange={(e) => {
              setKeyword(e.target.value);
              if (!e.target.value) setQuery((q) => ({ ...q, pageNum: 1, keyword: undefined }));
            }}
            onPressEnter={() => setQuery((q) => ({ ...q, pageNum: 1, keyword: keyword.trim() || undefined }))}
          />
          <Select
            allowClear
            aria-label={t('status')}
            placeholder={t('filter.anyStatus')}
            style={{ minWidth: 170 }}
            data-testid="device-filter-status"
            value={query.status}
            options={DEVICE_STATUSES.map((value) => ({ value, label: t(`statusName.${value}`) }))}
            onChange={(status?: Device['status']) => setQuery((q) => ({ ...q, pageNum: 1, status }))}
          />
          <Select
            allowClear
            aria-label={t('limitType')}
            placeholder={t('filter.anyLimit')}
            style={{ minWidth: 190 }}
            data-testid="device-filter-limit"
            value={query.limitType}
            options={Object.values(LIMIT_TYPES).map((value) => ({ value, label: t(`limit.${value}`) }))}
            onChange={(limitType?: number) => setQuery((q) => ({ ...q, pageNum: 1, limitType }))}
          />
          <Select<DeviceCondition[]>
            mode="multiple"
            allowClear
            aria-label={t('filter.conditions')}
            placeholder={t('filter.conditions')}
            style={{ minWidth: 220 }}
            data-testid="device-filter-conditions"
            value={DEVICE_CONDITIONS.filter((c) => query[c])}
            options={DEVICE_CONDITIONS.filter((c) => c !== 'addedThisMonth' || isOem || query[c]).map((value) => ({
              value,
              label: t(`condition.${value}`, {
                n: value === 'warrantyEnding' ? DEVICE_WARRANTY_ENDING_DAYS : DEVICE_LOW_BATTERY_PERCENT,
              }),
            }))}
            onChange={(chosen) =>
              setQuery((q) => ({
                ...q,
                pageNum: 1,
                ...Object.fromEntries(DEVICE_CONDITIONS.map((c) => [c, chosen.includes(c) || undefined])),
              }))
            }
          />
          {canAssign ? (
            <>
              <Button disabled={selected.length === 0} data-testid="assign-dealer" onClick={() => setAssigning(true)}>
                {t('assign.action')}
              </Button>
              {selected.length > 0 ? (
                <Typography.Text type="secondary" data-testid="assign-selected">
                  {t('assign.selected', { n: selected.length })}
                </Typography.Text>
              ) : null}
            </>
          ) : null}
        </Space>
        <Table<Device>
          rowKey="serialNumber"
          size="middle"
          scroll={{ x: 'max-content' }}
          loading={listLoading(list)}
          columns={columns}
          rowSelection={
            canAssign
              ? {
                  selectedRowKeys: selected,
                  preserveSelectedRowKeys: true,
                  onChange: (keys) => setSelected(keys.map(String)),
                }
              : undefined
          }
          dataSource={list.data?.list ?? []}
          onRow={(d) =>
            ({
              'data-testid': `device-row-${d.serialNumber}`,
              'data-name': d.name ?? '',
            }) as React.HTMLAttributes<HTMLElement>
          }
          pagination={{
            current: query.pageNum,
            pageSize: query.pageSize,
            total: list.data?.total ?? 0,
            onChange: (pageNum, pageSize) => setQuery((q) => ({ ...q, pageNum, pageSize })),
          }}
        />
      </Card>
      {isClinic ? (
        <Card title={t('activateTitle')}>
          <Form
            form={activateForm}
            layout="inline"
            onFinish={(v) =>
              activate.mutate({ serialNumber: v.serialNumber.trim(), activationCode: v.activationCode.trim() })
            }
          >
            <Form.Item
              name="serialNumber"
              label={t('serialNumber')}
              rules={[required, { max: FIELD_MAX.code, message: t('common:tooLong', { n: FIELD_MAX.code }) }]}
            >
              <Input data-testid="device-activate-serial" />
            </Form.Item>
            <Form.Item
              name="activationCode"
              label={t('activationCode')}
              rules={[required, { max: FIELD_MAX.code, message: t('common:tooLong', { n: FIELD_MAX.code }) }]}
            >
              <Input data-testid="device-activate-code" />
            </Form.Item>
            <Form.Item>
              <Button
                type="primary"
                htmlType="submit"
                loading={activate.isPending}
                data-testid="device-activate-submit"
              >
                {t('activate')}
              </Button>
            </Form.Item>
          </Form>
        </Card>
      ) : null}
      <Access permission="device:import">
        <CatalogImportCard />
      </Access>
      {isOem ? <CertifiedLabsCard canEdit={can('device:import')} /> : null}
      {isClinic ? (
        <DesignatedLabsModal device={designating} canEdit={can('device:edit')} onClose={() => setDesignating(null)} />
      ) : null}
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
        <Form
          form={nameForm}
          layout="vertical"
          onFinish={(v) => renaming && rename.mutate({ serialNumber: renaming.serialNumber, name: v.name.trim() })}
        >
          <Form.Item
            name="name"
            label={t('name')}
            rules={[required, { max: FIELD_MAX.name, message: t('common:tooLong', { n: FIELD_MAX.name }) }]}
          >
            <Input data-testid="device-rename-input" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={assigning}
        title={t('assign.title')}
        okText={t('assign.submit')}
        cancelText={t('common:cancel')}
        okButtonProps={{ loading: assign.isPending, 'data-testid': 'assign-dealer-submit' }}
        onOk={() => assignForm.submit()}
        onCancel={() => setAssigning(false)}
        forceRender
      >
        <Typography.Paragraph type="secondary">{t('assign.selected', { n: selected.length })}</Typography.Paragraph>
        <Form
          form={assignForm}
          layout="vertical"
          onFinish={(v) => assign.mutate({ serialNumbers: selected, dealerCode: v.dealerCode.trim() })}
        >
          <Form.Item
            name="dealerCode"
            label={t('assign.dealerCode')}
            extra={t('assign.dealerCodeHelp')}
            rules={[required, { max: FIELD_MAX.code, message: t('common:tooLong', { n: FIELD_MAX.code }) }]}
          >
            <Input data-testid="assign-dealer-code" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
