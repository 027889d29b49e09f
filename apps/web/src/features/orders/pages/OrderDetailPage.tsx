import { Alert, Button, Card, Col, Descriptions, Result, Row, Space, Spin, Tag, Timeline, Typography } from 'antd';
import ArrowLeftOutlined from '@ant-design/icons/ArrowLeftOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import {
  canRemake,
  normalizeToothNumbering,
  ORDER_ACTION_PERMISSION,
  OrderPermission,
  REMAKE_SETTLED_AGAIN,
  type ToothNumberingSystem,
} from '@portal/contracts';
import { useAccess } from '../../../components/Access';
import { useSession } from '../../../lib/session';
import { TreatmentTags, caseDetailPath } from '../../cases';
import { LateTag } from '../../catalogue';
import { orderDetailQuery } from '../api/orderDetail';
import type { OrderDetail, OrderEvent } from '../api/types';
import { OrderAttachments } from '../components/OrderAttachments';
import { OrderFiles } from '../components/OrderFiles';
import { useOrderViewerTools } from '../components/useOrderViewerTools';
import { OrderStatusTag } from '../components/OrderStatusTag';
import { OrderTeeth } from '../components/OrderTeeth';
import { OrderThread } from '../components/OrderThread';
import { PatientName } from '../components/PatientName';
import { RemakeDialog } from '../components/RemakeDialog';
import { useOrderActions } from '../components/useOrderActions';
import { allowedActions, sideOf, STATUS_COLORS, type Side } from '../lib/orderRules';
import { ORDER_LIST_PATH, orderDetailPath } from '../lib/paths';
import { authorLine } from '../lib/author';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { SharesCard } from '../../shares';
import { ScreenLink } from '../../../components/ScreenLink';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['orders', 'catalogue', 'retention'];

/** One order (§2): its state and the actions this side may take, the prescription, the case's files, the conversation. */
export default function OrderDetailPage() {
  const { t } = useTranslation('orders');
  const { id = '' } = useParams();
  const { user } = useSession();
  const side = sideOf(user?.organization.type);
  const detail = useQuery({ ...orderDetailQuery(id), enabled: id !== '' && side !== null });

  if (!side) return <Result status="403" title={t('noAccess')} data-testid="orders-no-access" />;
  if (detail.isPending) return <Spin data-testid="order-detail-loading" />;
  if (!detail.data) {
    return (
      <Result
        status="warning"
        title={t('notFound')}
        extra={
          <Link to={ORDER_LIST_PATH}>
            <Button>{t('backToList')}</Button>
          </Link>
        }
      />
    );
  }
  return (
    <OrderView
      order={detail.data}
      side={side}
      system={normalizeToothNumbering(user?.toothNumberingSystem)}
      // A copy kept from an earlier visit shows at once, but its buttons wait for the server's current answer.
      confirmed={detail.isFetchedAfterMount}
    />
  );
}

function OrderView({
  order: o,
  side,
  system,
  confirmed,
}: {
  order: OrderDetail;
  side: Side;
  system: ToothNumberingSystem;
  confirmed: boolean;
}) {
  const { t } = useTranslation('orders');
  const { t: tCatalogue } = useTranslation('catalogue');
  const { t: tRetention } = useTranslation('retention');
  const can = useAccess();
  const actions = useOrderActions({ nameOf: () => o.caseName });
  const available = allowedActions(o, side).filter((a) => can(ORDER_ACTION_PERMISSION[a]));
  const [remaking, setRemaking] = useState(false);
  // One remake at a time: another may be asked once the last was canceled or rejected.
  const remakable =
    canRemake(o.status, side) &&
    can(OrderPermission.Create) &&
    o.remakes.every((r) => REMAKE_SETTLED_AGAIN.includes(r.status));
  // Margin lines: the laboratory draws them with the permission it produces with, the clinic with the one it orders with.
  const viewerTools = useOrderViewerTools(
    o,
    system,
    can(side === 'lab' ? ORDER_ACTION_PERMISSION.ready : OrderPermission.Create),
  );

  return (
    <Space
      orientation="vertical"
      size={16}
      style={{ width: '100%' }}
      data-testid="order-detail"
      data-order-code={o.orderCode}
      data-status={o.status}
      data-confirmed={confirmed ? 'true' : 'false'}
    >
      <Card
        title={
          <Space wrap>
            <Link to={ORDER_LIST_PATH} aria-label={t('backToList')}>
              <ArrowLeftOutlined aria-hidden />
            </Link>
            <span data-testid="order-detail-title">{o.caseName}</span>
            <OrderStatusTag status={o.status} processing={o.processing} />
            <LateTag order={o} />
          </Space>
        }
        extra={
          available.length || remakable ? (
            <Space wrap>
              {remakable ? (
                <Button
                  data-testid="order-action-remake"
                  data-permission={OrderPermission.Create}
                  disabled={!confirmed || actions.busyAction !== null}
                  onClick={() => setRemaking(true)}
                >
                  {t('action.remake')}
                </Button>
              ) : null}
              {available.map((a) => (
                <Button
                  key={a}
                  data-testid={`order-action-${a}`}
                  data-permission={ORDER_ACTION_PERMISSION[a]}
                  type={a === 'reject' || a === 'cancel' ? 'default' : 'primary'}
                  danger={a === 'reject' || a === 'cancel'}
                  disabled={!confirmed || actions.busyAction !== null}
                  loading={actions.busyAction === a}
                  onClick={() => actions.start(a, [o.orderCode])}
                >
                  {t(`action.${a}`)}
                </Button>
              ))}
            </Space>
          ) : null
        }
      >
        <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small">
          <Descriptions.Item label={t('field.orderCode')}>
            <Typography.Text copyable>{o.orderCode}</Typography.Text>
          </Descriptions.Item>
          {o.remakeOf ? (
            <Descriptions.Item label={t('field.remakeOf')}>
              <span data-testid="order-remake-of">
                <Link to={orderDetailPath(o.remakeOf.orderCode)}>{o.remakeOf.orderCode}</Link>
                {' · '}
                {t(`remakeReason.${o.remakeOf.reason}`)}
              </span>
            </Descriptions.Item>
          ) : null}
          {o.remakes.length ? (
            <Descriptions.Item label={t('field.remakes')}>
              <Space wrap size={4} data-testid="order-remakes">
                {o.remakes.map((r) => (
                  <span key={r.orderCode}>
                    <Link to={orderDetailPath(r.orderCode)}>{r.orderCode}</Link>{' '}
                    <OrderStatusTag status={r.status} processing={false} />
                  </span>
                ))}
              </Space>
            </Descriptions.Item>
          ) : null}
          <Descriptions.Item label={t('field.case')}>
            {/* Only the clinic owns the case; the laboratory reads it through the order. */}
            {side === 'clinic' ? (
              <ScreenLink to={caseDetailPath(o.caseCode)} testId="order-case">
                {o.caseName}
              </ScreenLink>
            ) : (
              o.caseName
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.patientName')}>
            <span data-testid="order-patient">
              <PatientName name={o.patientName} />
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={side === 'clinic' ? t('field.lab') : t('field.clinic')}>
            <span data-testid="order-partner">{side === 'clinic' ? o.lab.name : o.clinic.name}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('field.orderType')}>
            {t(`orderType.${o.orderType}`, { defaultValue: o.orderType })}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.workTypes')}>
            <TreatmentTags treatments={o.workTypes} />
          </Descriptions.Item>
          {o.product ? (
            <Descriptions.Item label={tCatalogue('picker.label')}>
              <span data-testid="order-product">{o.product.name}</span>
            </Descriptions.Item>
          ) : null}
          <Descriptions.Item label={t('field.createdAt')}>{formatDateTime(o.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={t('field.requestedDeliveryDate')}>
            {o.requestedDeliveryDate ? formatDate(o.requestedDeliveryDate) : '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.updatedAt')}>{formatDateTime(o.updatedAt)}</Descriptions.Item>
          <Descriptions.Item label={t('field.shipDate')}>{o.shipDate ? formatDate(o.shipDate) : '—'}</Descriptions.Item>
          <Descriptions.Item label={t('field.trackingNumber')}>
            <span data-testid="order-tracking">
              {o.trackingNumber ? <Typography.Text copyable>{o.trackingNumber}</Typography.Text> : '—'}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('field.estimatedDeliveryDate')}>
            {o.estimatedDeliveryDate ? formatDate(o.estimatedDeliveryDate) : '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.sharePatientName')}>
            <Tag
              color={o.sharePatientName ? 'green' : 'default'}
              data-testid="order-share-name"
              data-shared={o.sharePatientName ? 'true' : 'false'}
            >
              {o.sharePatientName ? t('share.on') : t('share.off')}
            </Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('field.memo')} span="filled">
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }} data-testid="order-memo">
              {o.memo || '—'}
            </Typography.Paragraph>
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Row gutter={[16, 16]}>
        <Col xs={24} xl={15}>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            <Card title={t('teeth.title')}>
              <OrderTeeth
                teeth={o.teeth}
                system={system}
                orderCode={o.orderCode}
                // The laboratory marks each tooth's progress while the order is in production.
                stageEditable={side === 'lab' && o.status === 'accepted' && can(ORDER_ACTION_PERMISSION.ready)}
              />
            </Card>
            <Card title={t('files.title', { count: o.files.length })}>
              {o.scansWithheld ? (
                <Alert type="info" showIcon data-testid="scans-withheld" title={tRetention('scansWithheld')} />
              ) : (
                <OrderFiles files={o.files} tools={viewerTools} />
              )}
            </Card>
            <Card title={t('attachment.title', { count: o.attachments.length })}>
              <OrderAttachments orderCode={o.orderCode} attachments={o.attachments} />
            </Card>
            <SharesCard resourceType="order" resourceCode={o.orderCode} />
          </Space>
        </Col>
        <Col xs={24} xl={9}>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            <Card title={t('thread.title')}>
              <OrderThread orderCode={o.orderCode} open={o.threadOpen} />
            </Card>
            <Card title={t('timeline.title')}>
              <Timeline
                data-testid="order-timeline"
                items={o.events.map((e, i) => ({ key: i, color: eventColor(e), content: <EventLine event={e} /> }))}
              />
            </Card>
          </Space>
        </Col>
      </Row>
      {actions.element}
      <RemakeDialog orderCode={o.orderCode} open={remaking} onClose={() => setRemaking(false)} />
    </Space>
  );
}

function eventColor(e: OrderEvent): string {
  const to = e.to as keyof typeof STATUS_COLORS;
  const c = STATUS_COLORS[to];
  // Timeline dots take plain colour names; antd's tag presets 'gold'/'purple' are fine, 'default' is not.
  return !c || c === 'default' ? 'gray' : c;
}

function EventLine({ event: e }: { event: OrderEvent }) {
  const { t } = useTranslation('orders');
  return (
    <div data-testid="order-event" data-action={e.action}>
      <Typography.Text strong>{t(`event.${e.action}`, { defaultValue: e.action })}</Typography.Text>
      <div>
        <Typography.Text type="secondary">
          {authorLine(e.actorName, e.actorOrganization, t('common:formerUser'))} ·{' '}
          <time dateTime={e.at}>{formatDateTime(e.at)}</time>
        </Typography.Text>
      </div>
      {e.linkedOrderCode ? (
        <div data-testid="order-event-link">
          <Typography.Text>
            {e.action === 'remakeRequested' ? t('timeline.remadeAs') : t('timeline.remakeOf')}{' '}
            <Link to={orderDetailPath(e.linkedOrderCode)}>{e.linkedOrderCode}</Link>
          </Typography.Text>
        </div>
      ) : null}
      {e.reason ? (
        <div data-testid="order-event-reason">
          <Typography.Text>{t('timeline.reason', { reason: e.reason })}</Typography.Text>
        </div>
      ) : null}
    </div>
  );
}
