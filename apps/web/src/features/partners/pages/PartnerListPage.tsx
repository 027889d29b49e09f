import { useState } from 'react';
import { Alert, Button, Card, Input, Space, Tabs, Typography } from 'antd';
import { ListTable } from '../../../components/ListTable';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OrgType, Permission } from '@portal/contracts';
import { Access, useAccess } from '../../../components/Access';
import { useListState, useSearchText } from '../../../lib/listState';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { listPartnersQuery } from '../api/listPartners';
import { PARTNER_TABS, type Partner } from '../api/types';
import { usePartnerAction } from '../api/usePartnerMutations';
import { AddPartnerModal } from '../components/AddPartnerModal';
import { InviteLabModal } from '../components/InviteLabModal';
import { NoAccess } from '../components/NoAccess';
import { PartnerDetailDrawer } from '../components/PartnerDetailDrawer';
import { PartnerStatusTag } from '../components/PartnerStatusTag';
import { ReasonModal } from '../components/ReasonModal';
import { errorText } from '../../../lib/http';
import { formatDateTime } from '../../../lib/dates';
import { locationOf } from '../lib/format';
import { partnerListCodec } from '../lib/partnerListCodec';
import { canManagePartners, isNoAccessError, rowActions, type RowAction } from '../lib/partnerRules';
import { messageOf } from '../../../lib/errors';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['partners'];

/** Partner management (§2): My partners (a laboratory's customers) / To be Confirmed / History, add, invite, detail. */
export default function PartnerListPage() {
  const { user } = useSession();
  if (!canManagePartners(user?.organization.type)) return <NoAccess />;
  return <PartnerList isClinic={user?.organization.type === OrgType.Clinic} />;
}

function PartnerList({ isClinic }: { isClinic: boolean }) {
  const { t } = useTranslation('partners');
  // The tab, page and committed search are in the address; what is typed in the box is not until it is searched.
  const [query, setQuery] = useListState(partnerListCodec);
  const [keyword, setKeyword] = useSearchText(query.keyword);
  const [addOpen, setAddOpen] = useState(false);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [detail, setDetail] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<Partner | null>(null);
  const [terminating, setTerminating] = useState<Partner | null>(null);

  const list = useQuery(listPartnersQuery(query));
  const can = useAccess();

  // An illegal move (2032) is shown by the http client; the hook reloads the list either way.
  const act = usePartnerAction({
    onSuccess: (_d, v) => {
      notify.success(t(`done.${v.action}`));
      setRejecting(null);
      setTerminating(null);
    },
  });
  const busy = (p: Partner, a: RowAction) =>
    act.isPending && act.variables?.partner.partnerCode === p.partnerCode && act.variables.action === a;

  if (list.error && isNoAccessError(list.error)) return <NoAccess />;

  const setTab = (key: string) => setQuery((q) => ({ ...q, tab: key as typeof q.tab, pageNum: 1 }));

  const actionButton = (p: Partner, a: RowAction) => {
    const common = {
      size: 'small' as const,
      'data-testid': `partner-${a}`,
      'data-permission': Permission.PartnerEdit,
      loading: busy(p, a),
      disabled: act.isPending && !busy(p, a),
    };
    switch (a) {
      case 'accept':
        return (
          <Button key={a} {...common} type="primary" onClick={() => act.mutate({ action: 'accept', partner: p })}>
            {t('action.accept')}
          </Button>
        );
      case 'reject':
        return (
          <Button key={a} {...common} danger onClick={() => setRejecting(p)}>
            {t('action.reject')}
          </Button>
        );
      case 'cancel':
        return (
          <Button key={a} {...common} onClick={() => act.mutate({ action: 'cancel', partner: p })}>
            {t('action.cancel')}
          </Button>
        );
      case 'terminate':
        return (
          <Button key={a} {...common} danger onClick={() => setTerminating(p)}>
            {t('action.terminate')}
          </Button>
        );
      case 'reapply':
        return (
          <Button key={a} {...common} onClick={() => act.mutate({ action: 'reapply', partner: p })}>
            {t('action.reapply')}
          </Button>
        );
    }
  };

  const columns: ColumnsType<Partner> = [
    {
      title: t('column.name'),
      key: 'name',
      render: (_, r) => (
        <Space orientation="vertical" size={0}>
          <Typography.Link data-testid="partner-name" onClick={() => setDetail(r.partnerCode)}>
            {r.organization.name}
          </Typography.Link>
          {r.invitedEmail && r.organization.name !== r.invitedEmail ? (
            <Typography.Text type="secondary">{r.invitedEmail}</Typography.Text>
          ) : null}
        </Space>
      ),
    },
    { title: t('column.location'), key: 'location', render: (_, r) => locationOf(r.organization) || '—' },
    { title: t('column.status'), key: 'status', render: (_, r) => <PartnerStatusTag status={r.status} /> },
    {
      title: t('column.initiatedBy'),
      key: 'initiatedBy',
      render: (_, r) => (r.initiatedByMe ? t('initiatedBy.me') : t('initiatedBy.them')),
    },
    { title: t('column.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
    { title: t('column.updatedAt'), dataIndex: 'updatedAt', render: (v: string) => formatDateTime(v) },
    {
      title: t('column.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space wrap>
          {/* Every move of a partnership is partner:edit; a role that only views them gets the detail. */}
          {can(Permission.PartnerEdit) ? rowActions(r).map((a) => actionButton(r, a)) : null}
          <Button size="small" type="link" data-testid="partner-view" onClick={() => setDetail(r.partnerCode)}>
            {t('action.detail')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card
      // A clinic's partners are laboratories; a laboratory's are its customers (the menu's "Customer").
      title={isClinic ? t('title') : t('titleLab')}
      data-testid="partner-list"
      extra={
        <Access permission={Permission.PartnerEdit}>
          <Space wrap>
            <Button type="primary" data-testid="partner-add" onClick={() => setAddOpen(true)}>
              {isClinic ? t('add.lab') : t('add.clinic')}
            </Button>
            {isClinic ? (
              <Button data-testid="partner-invite" onClick={() => setInviteOpen(true)}>
                {t('invite.button')}
              </Button>
            ) : null}
          </Space>
        </Access>
      }
    >
      <Tabs
        activeKey={query.tab}
        onChange={setTab}
        items={PARTNER_TABS.map((key) => ({
          key,
          label: (
            <span data-testid={`partner-tab-${key}`}>
              {t(key === 'mine' && !isClinic ? 'tabs.mineLab' : `tabs.${key}`)}
            </span>
          ),
        }))}
      />
      <Input.Search
        data-testid="partner-search"
        allowClear
        placeholder={t('searchPlaceholder')}
        style={{ maxWidth: 320, marginBottom: 16 }}
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        onSearch={(v) => setQuery((q) => ({ ...q, keyword: v.trim() || undefined, pageNum: 1 }))}
      />
      {list.error ? (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} title={messageOf(list.error, errorText)} />
      ) : null}
      <ListTable<Partner>
        rowKey="partnerCode"
        columns={columns}
        list={list}
        page={query}
        onPage={(page) => setQuery((q) => ({ ...q, ...page }))}
        showTotal={(n) => t('total', { count: n })}
        rowAttributes={(r) => ({ 'data-testid': `partner-row-${r.partnerCode}`, 'data-status': r.status })}
      />

      <AddPartnerModal open={addOpen} isClinic={isClinic} onClose={() => setAddOpen(false)} />
      {isClinic ? <InviteLabModal open={inviteOpen} onClose={() => setInviteOpen(false)} /> : null}
      <PartnerDetailDrawer partnerCode={detail} onClose={() => setDetail(null)} />
      <ReasonModal
        open={rejecting !== null}
        title={t('reject.title', { name: rejecting?.organization.name ?? '' })}
        label={t('reject.reason')}
        required
        okText={t('action.reject')}
        testId="partner-reject"
        busy={act.isPending}
        onClose={() => setRejecting(null)}
        onSubmit={(reason) => rejecting && act.mutate({ action: 'reject', partner: rejecting, reason })}
      />
      <ReasonModal
        open={terminating !== null}
        title={t('terminate.title', { name: terminating?.organization.name ?? '' })}
        content={`${t('terminate.orders')} ${t('terminate.hint')}`}
        label={t('terminate.reason')}
        required={false}
        okText={t('action.terminate')}
        testId="partner-terminate"
        busy={act.isPending}
        onClose={() => setTerminating(null)}
        onSubmit={(reason) => terminating && act.mutate({ action: 'terminate', partner: terminating, reason })}
      />
    </Card>
  );
}
