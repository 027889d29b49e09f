import { useEffect, useState } from 'react';
import { Button, Divider, Empty, Input, List, Modal, Space, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ERRORS, FIELD_MAX } from '@portal/contracts';
import { ApiError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { checkInvitationCode } from '../api/checkInvitationCode';
import { searchPartners } from '../api/searchPartners';
import type { PartnerTarget } from '../api/types';
import { useApplyPartner } from '../api/usePartnerMutations';
import { locationOf } from '../lib/format';
import { sayIfRefused } from '../../../lib/refusal';

/**
 * "Add laboratory" (a clinic) / "Associate clinic" (a laboratory): find the other organization by its
 * invitation code or by name, then apply.
 */
export function AddPartnerModal({
  open,
  isClinic,
  onClose,
}: {
  open: boolean;
  isClinic: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(['partners', 'errors']);
  const [code, setCode] = useState('');
  const [keyword, setKeyword] = useState('');
  useBackClose(open, onClose);

  const check = useMutation({ mutationFn: (c: string) => checkInvitationCode(c), onError: sayIfRefused });
  const search = useMutation({ mutationFn: (k: string) => searchPartners(k), onError: sayIfRefused });
  const apply = useApplyPartner({
    onSuccess: (_d, target) => {
      notify.success(t('add.applied', { name: target.name }));
      onClose();
    },
  });

  useEffect(() => {
    if (!open) return;
    setCode('');
    setKeyword('');
    check.reset();
    search.reset();
    apply.reset();
    // The mutations are stable objects; only a new opening resets the dialog.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const applyButton = (target: PartnerTarget) => (
    <Button
      type="primary"
      size="small"
      data-testid="partner-add-apply"
      data-code={target.organizationCode}
      loading={apply.isPending && apply.variables?.organizationCode === target.organizationCode}
      disabled={apply.isPending}
      onClick={() => apply.mutate(target)}
    >
      {t('add.apply')}
    </Button>
  );
  const targetItem = (target: PartnerTarget) => (
    <List.Item
      key={target.organizationCode}
      data-testid={`partner-add-result-${target.organizationCode}`}
      actions={[applyButton(target)]}
    >
      <List.Item.Meta title={target.name} description={locationOf(target) || undefined} />
    </List.Item>
  );

  const runCheck = () => {
    const c = code.trim();
    if (c) check.mutate(c);
  };
  const runSearch = () => {
    const k = keyword.trim();
    if (k) search.mutate(k);
  };

  return (
    <Modal
      open={open}
      title={isClinic ? t('add.lab') : t('add.clinic')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={560}
    >
      <Typography.Title level={5}>{t('add.byCode')}</Typography.Title>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          data-testid="partner-add-code"
          placeholder={t('add.codePlaceholder')}
          value={code}
          maxLength={FIELD_MAX.code}
          onChange={(e) => {
            setCode(e.target.value);
            check.reset();
          }}
          onPressEnter={runCheck}
        />
        <Button data-testid="partner-add-check" loading={check.isPending} disabled={!code.trim()} onClick={runCheck}>
          {t('add.check')}
        </Button>
      </Space.Compact>
      {check.data ? <List data-testid="partner-add-found" dataSource={[check.data]} renderItem={targetItem} /> : null}
      {/* 410 is not toasted (§8): the answer belongs next to the code that was typed. */}
      {check.error instanceof ApiError && check.error.code === ERRORS.PARTNER_NAME_UNAVAILABLE.code ? (
        <Typography.Paragraph type="secondary" data-testid="partner-add-unknown" style={{ marginTop: 8 }}>
          {t('errors:partnerNameUnavailable')}
        </Typography.Paragraph>
      ) : null}

      <Divider plain>{t('add.or')}</Divider>

      <Typography.Title level={5}>{t('add.byName')}</Typography.Title>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          data-testid="partner-add-search"
          placeholder={isClinic ? t('add.searchLab') : t('add.searchClinic')}
          value={keyword}
          maxLength={FIELD_MAX.name}
          onChange={(e) => setKeyword(e.target.value)}
          onPressEnter={runSearch}
        />
        <Button
          data-testid="partner-add-search-submit"
          loading={search.isPending}
          disabled={!keyword.trim()}
          onClick={runSearch}
        >
          {t('add.search')}
        </Button>
      </Space.Compact>
      {search.data ? (
        search.data.list.length ? (
          <List data-testid="partner-add-results" dataSource={search.data.list} renderItem={targetItem} />
        ) : (
          <Empty data-testid="partner-add-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('add.noResult')} />
        )
      ) : null}
    </Modal>
  );
}
