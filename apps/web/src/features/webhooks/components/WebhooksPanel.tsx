import { useState } from 'react';
import {
  Button,
  Card,
  Checkbox,
  Drawer,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS } from '@portal/contracts';
import { ApiError, errorText } from '../../../lib/http';
import { formatDateTime } from '../../../lib/dates';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { SecretShownOnce } from '../../../components/SecretShownOnce';
import { usePageInRange } from '../../../lib/listState';
import {
  deliveriesQuery,
  endpointsQuery,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
} from '../api/webhooks';
import {
  useCreateEndpoint,
  useDeleteEndpoint,
  useReplayDelivery,
  useRotateSecret,
  useSetEnabled,
} from '../api/useWebhookMutations';

/** Why an endpoint is off, as the tag says it (the server's reasons; anything else reads as turned off by hand). */
const offReason = (reason: string | null) => (reason === 'gone' || reason === 'failing' ? reason : 'manual');
const DELIVERY_COLOR = { pending: 'processing', succeeded: 'success', failed: 'error' } as const;

/** Own space → webhooks (webhook:manage): the organization's endpoints, their secrets and delivery log. */
export default function WebhooksPanel() {
  const { t } = useTranslation('webhooks');
  const list = useQuery(endpointsQuery());
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [log, setLog] = useState<WebhookEndpoint | null>(null);
  const [form] = Form.useForm<{ url: string; events: WebhookEvent[]; description?: string }>();
  useBackClose(adding, () => setAdding(false));

  const create = useCreateEndpoint({
    onSuccess: (answer) => {
      setAdding(false);
      setSecret(answer.secret);
    },
    onError: (err) => {
      if (err instanceof ApiError) form.setFields([{ name: 'url', errors: [errorText(err.code, err.msg) ?? ''] }]);
    },
  });
  const rotate = useRotateSecret({ onSuccess: (answer) => setSecret(answer.secret) });
  const toggle = useSetEnabled();
  const remove = useDeleteEndpoint({ onSuccess: () => notify.success(t('deleted')) });

  const columns: ColumnsType<WebhookEndpoint> = [
    {
      title: t('url'),
      dataIndex: 'url',
      render: (url: string, e) => (
        <Space direction="vertical" size={0}>
          <Typography.Text code>{url}</Typography.Text>
          {e.description ? <Typography.Text type="secondary">{e.description}</Typography.Text> : null}
        </Space>
      ),
    },
    {
      title: t('events'),
      dataIndex: 'events',
      render: (events: string[]) => events.map((x) => <Tag key={x}>{x}</Tag>),
    },
    {
      title: t('status'),
      key: 'status',
      render: (_, e) =>
        e.enabled ? (
          <Tag color="success">{t('on')}</Tag>
        ) : (
          <Tag color="error">{t(`off.${offReason(e.disabledReason)}`)}</Tag>
        ),
    },
    {
      title: t('action'),
      key: 'action',
      render: (_, e) => (
        <Space wrap>
          <Button size="small" onClick={() => setLog(e)} data-testid={`webhook-log-${e.endpointCode}`}>
            {t('deliveries')}
          </Button>
          <Button
            size="small"
            loading={toggle.isPending && toggle.variables?.code === e.endpointCode}
            onClick={() => toggle.mutate({ code: e.endpointCode, enabled: !e.enabled })}
          >
            {e.enabled ? t('turnOff') : t('turnOn')}
          </Button>
          <Popconfirm title={t('rotateConfirm')} onConfirm={() => rotate.mutate(e.endpointCode)}>
            <Button size="small" data-testid={`webhook-rotate-${e.endpointCode}`}>
              {t('rotate')}
            </Button>
          </Popconfirm>
          <Popconfirm
            title={t('deleteConfirm', { url: e.url })}
            onConfirm={() => remove.mutate(e.endpointCode)}
            okButtonProps={{ danger: true }}
          >
            <Button size="small" danger data-testid={`webhook-delete-${e.endpointCode}`}>
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
      data-testid="own-webhooks"
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          disabled={(list.data?.list.length ?? 0) >= WEBHOOK_LIMITS.endpoints}
          onClick={() => {
            form.resetFields();
            setAdding(true);
          }}
          data-testid="webhook-add"
        >
          {t('add')}
        </Button>
      }
    >
      <p>{t('explain')}</p>
      <Table<WebhookEndpoint>
        rowKey="endpointCode"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('empty')} /> }}
      />
      <Modal
        open={adding}
        title={t('add')}
        onCancel={() => setAdding(false)}
        onOk={() => form.submit()}
        okButtonProps={{ loading: create.isPending, 'data-testid': 'webhook-add-save' }}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          initialValues={{ events: [...WEBHOOK_EVENTS] }}
          onFinish={(v) =>
            create.mutate({ url: v.url.trim(), events: v.events, description: v.description?.trim() ?? '' })
          }
        >
          <Form.Item
            name="url"
            label={t('url')}
            extra={t('urlHint')}
            rules={[{ required: true, whitespace: true, message: t('common:required') }]}
          >
            <Input maxLength={WEBHOOK_LIMITS.urlChars} placeholder="https://" data-testid="webhook-url" />
          </Form.Item>
          <Form.Item
            name="events"
            label={t('events')}
            rules={[{ required: true, type: 'array', min: 1, message: t('common:required') }]}
          >
            <Checkbox.Group options={WEBHOOK_EVENTS.map((x) => ({ label: x, value: x }))} />
          </Form.Item>
          <Form.Item name="description" label={t('description')}>
            <Input maxLength={WEBHOOK_LIMITS.descriptionChars} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={secret !== null}
        title={t('secretTitle')}
        onOk={() => setSecret(null)}
        onCancel={() => setSecret(null)}
      >
        {secret !== null ? <SecretShownOnce secret={secret} warning={t('secretOnce')} testId="webhook-secret" /> : null}
      </Modal>
      <Drawer open={log !== null} title={t('deliveries')} width={760} onClose={() => setLog(null)} destroyOnHidden>
        {log ? <DeliveryLog endpoint={log} /> : null}
      </Drawer>
    </Card>
  );
}

function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks');
  const [page, setPage] = useState(1);
  const deliveries = useQuery(deliveriesQuery(endpoint.endpointCode, page));
  usePageInRange({ pageNum: page, pageSize: 20 }, deliveries, setPage);
  const replay = useReplayDelivery({ onSuccess: () => notify.success(t('replayed')) });
  const columns: ColumnsType<WebhookDelivery> = [
    { title: t('event'), dataIndex: 'eventType' },
    { title: t('createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
    {
      title: t('status'),
      dataIndex: 'status',
      render: (s: WebhookDelivery['status']) => <Tag color={DELIVERY_COLOR[s]}>{t(`delivery.${s}`)}</Tag>,
    },
    { title: t('attempts'), dataIndex: 'attempts' },
    { title: t('lastStatus'), dataIndex: 'lastStatusCode', render: (v: number | null) => v ?? '–' },
    { title: t('latency'), dataIndex: 'lastLatencyMs', render: (v: number | null) => (v === null ? '–' : `${v} ms`) },
    {
      title: t('nextAttempt'),
      dataIndex: 'nextAttemptAt',
      render: (v: string | null) => (v ? formatDateTime(v) : '–'),
    },
    {
      title: t('action'),
      key: 'action',
      render: (_, d) => (
        <Button
          size="small"
          loading={replay.isPending && replay.variables === d.deliveryCode}
          onClick={() => replay.mutate(d.deliveryCode)}
          data-testid={`webhook-replay-${d.deliveryCode}`}
        >
          {t('replay')}
        </Button>
      ),
    },
  ];
  return (
    <Table<WebhookDelivery>
      rowKey="deliveryCode"
      columns={columns}
      onRow={(d) =>
        ({
          'data-testid': `webhook-delivery-${d.deliveryCode}`,
          'data-status': d.status,
          'data-attempts': d.attempts,
        }) as React.HTMLAttributes<HTMLElement>
      }
      dataSource={deliveries.data?.list ?? []}
      loading={deliveries.isPending}
      scroll={{ x: 'max-content' }}
      pagination={{ current: page, pageSize: 20, total: deliveries.data?.total ?? 0, onChange: setPage }}
      expandable={{
        expandedRowRender: (d) => (
          <Space direction="vertical" style={{ width: '100%' }}>
            {d.attemptLog.map((a) => (
              <div key={a.attempt}>
                <Typography.Text strong>
                  {t('attemptLine', {
                    n: a.attempt,
                    time: formatDateTime(a.at),
                    status: a.statusCode ?? '–',
                    ms: a.latencyMs,
                  })}
                </Typography.Text>
                {a.error ? <Typography.Paragraph type="danger">{a.error}</Typography.Paragraph> : null}
                {a.response ? <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{a.response}</pre> : null}
              </div>
            ))}
          </Space>
        ),
      }}
      locale={{ emptyText: <Empty description={t('noDeliveries')} /> }}
    />
  );
}
