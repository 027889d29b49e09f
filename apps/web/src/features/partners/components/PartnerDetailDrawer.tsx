import { Alert, Descriptions, Drawer, Empty, Spin, Timeline, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useBackClose } from '../../../lib/useBackClose';
import { partnerInfoQuery } from '../api/partnerInfo';
import type { PartnerEvent } from '../api/types';
import { formatDateTime } from '../../../lib/dates';
import { locationOf } from '../lib/format';
import { errorText } from '../../../lib/http';
import { colorGroupOf, isNoAccessError } from '../lib/partnerRules';
import { messageOf } from '../../../lib/errors';
import { NoAccess } from './NoAccess';
import { OrgType } from '@portal/contracts';
import { Access } from '../../../components/Access';
import { useSession } from '../../../lib/session';
import { LabScorecard } from '../../scorecards';
import { PartnerStatusTag } from './PartnerStatusTag';

const TIMELINE_COLOR = { temp: 'purple', applying: 'blue', accepted: 'green', canceledAndRejected: 'gray' } as const;

/** One partnership (getPartnerInfo) with its timeline of status changes. */
export function PartnerDetailDrawer({ partnerCode, onClose }: { partnerCode: string | null; onClose: () => void }) {
  const { t } = useTranslation(['partners', 'scorecards']);
  const open = partnerCode !== null;
  useBackClose(open, onClose);
  const info = useQuery({ ...partnerInfoQuery(partnerCode ?? ''), enabled: open });
  const p = info.data;
  // A clinic's partners are laboratories: it sees how each performs before sending it work.
  const clinic = useSession().user?.organization.type === OrgType.Clinic;

  const eventItem = (e: PartnerEvent, i: number) => {
    const group = colorGroupOf(e.to);
    return {
      key: i,
      color: group ? TIMELINE_COLOR[group] : 'gray',
      title: formatDateTime(e.at),
      content: (
        <div data-testid="partner-event" data-action={e.action} data-to={e.to}>
          <Typography.Text strong>{t(`event.${e.action}`, { defaultValue: e.action })}</Typography.Text>
          <div>
            {e.from !== null ? <PartnerStatusTag status={e.from} /> : null}
            {e.from !== null ? '→ ' : null}
            <PartnerStatusTag status={e.to} />
          </div>
          {e.actorName || e.actorOrganization ? (
            <Typography.Text type="secondary">
              {t('detail.by', { name: e.actorName || t('common:formerUser'), organization: e.actorOrganization })}
            </Typography.Text>
          ) : null}
          {e.reason ? <div data-testid="partner-event-reason">{t('detail.reason', { reason: e.reason })}</div> : null}
        </div>
      ),
    };
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('detail.title')}
      size={Math.min(560, typeof window !== 'undefined' ? window.innerWidth : 560)}
      destroyOnHidden
    >
      <div data-testid="partner-detail" data-code={partnerCode ?? ''}>
        {info.isLoading ? <Spin /> : null}
        {info.error ? (
          isNoAccessError(info.error) ? (
            <NoAccess />
          ) : (
            <Alert type="error" showIcon title={messageOf(info.error, errorText)} />
          )
        ) : null}
        {p ? (
          <>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('column.name')}>
                <span data-testid="partner-detail-name">{p.organization.name}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('column.location')}>{locationOf(p.organization) || '—'}</Descriptions.Item>
              <Descriptions.Item label={t('column.status')}>
                <PartnerStatusTag status={p.status} />
              </Descriptions.Item>
              <Descriptions.Item label={t('column.initiatedBy')}>
                {p.initiatedByMe ? t('initiatedBy.me') : t('initiatedBy.them')}
              </Descriptions.Item>
              {p.invitedEmail ? (
                <Descriptions.Item label={t('detail.invitedEmail')}>{p.invitedEmail}</Descriptions.Item>
              ) : null}
              <Descriptions.Item label={t('column.createdAt')}>{formatDateTime(p.createdAt)}</Descriptions.Item>
              <Descriptions.Item label={t('column.updatedAt')}>{formatDateTime(p.updatedAt)}</Descriptions.Item>
            </Descriptions>
            {clinic && partnerCode ? (
              <Access permission="order:view">
                <Typography.Title level={5} style={{ marginTop: 24 }}>
                  {t('scorecards:title')}
                </Typography.Title>
                <LabScorecard partnerCode={partnerCode} />
              </Access>
            ) : null}
            <Typography.Title level={5} style={{ marginTop: 24 }}>
              {t('detail.timeline')}
            </Typography.Title>
            <div data-testid="partner-timeline">
              {p.events.length ? (
                <Timeline items={p.events.map(eventItem)} />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noEvents')} />
              )}
            </div>
          </>
        ) : null}
      </div>
    </Drawer>
  );
}
