import { useEffect, useMemo, useState } from 'react';
import { Alert, Checkbox, Empty, Input, Modal, Space, Spin, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { designatedLabsQuery, type LabRef } from '../api/designatedLabs';
import { partnerLabsQuery } from '../api/partnerLabs';
import type { Device } from '../api/listDevices';
import { useSaveDesignatedLabs } from '../api/useDeviceMutations';

/** The choices: the accepted partner laboratories, plus any designated one that is no longer a partner (so it can be removed). */
export function labChoices(partners: readonly LabRef[], current: readonly LabRef[]): (LabRef & { partner: boolean })[] {
  const codes = new Set(partners.map((l) => l.code));
  return [
    ...partners.map((l) => ({ ...l, partner: true })),
    ...current.filter((l) => !codes.has(l.code)).map((l) => ({ ...l, partner: false })),
  ];
}

/**
 * A clinic's scanner with limit type 1 sends only to the laboratories designated here, chosen among the
 * clinic's accepted partner laboratories. Read-only without the device edit permission.
 */
export function DesignatedLabsModal({
  device,
  canEdit,
  onClose,
}: {
  device: Device | null;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('devices');
  const open = device !== null;
  const serial = device?.serialNumber ?? '';
  useBackClose(open, onClose);
  const current = useQuery({ ...designatedLabsQuery(serial), enabled: open });
  const partners = useQuery({ ...partnerLabsQuery(), enabled: open && canEdit });
  const [chosen, setChosen] = useState<string[]>([]);
  const [filter, setFilter] = useState('');

  // The current list becomes the starting selection each time the dialog opens or the list (re)loads.
  useEffect(() => {
    if (open && current.data) setChosen(current.data.list.map((l) => l.code));
  }, [open, current.data]);
  useEffect(() => setFilter(''), [open, serial]);

  const choices = useMemo(
    () => labChoices(partners.data ?? [], current.data?.list ?? []),
    [partners.data, current.data],
  );
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? choices.filter((l) => l.name.toLowerCase().includes(needle) || l.code.toLowerCase().includes(needle))
    : choices;

  const save = useSaveDesignatedLabs({
    onSuccess: () => {
      notify.success(t('designated.saved'));
      onClose();
    },
  });

  const loading = current.isFetching || (canEdit && partners.isFetching);
  return (
    <Modal
      open={open}
      title={t('designated.title', { name: device?.name || device?.serialNumber || '' })}
      okText={t('common:save')}
      cancelText={canEdit ? t('common:cancel') : t('designated.close')}
      okButtonProps={{
        loading: save.isPending,
        disabled: !current.data,
        'data-testid': 'designated-labs-save',
        style: canEdit ? undefined : { display: 'none' },
      }}
      onOk={() => canEdit && save.mutate({ serialNumber: serial, labCodes: chosen })}
      onCancel={onClose}
      destroyOnHidden
    >
      <div data-testid="designated-labs-modal">
        <Typography.Paragraph type="secondary">{t('designated.help')}</Typography.Paragraph>
        <Spin spinning={loading}>
          {canEdit ? (
            <Space orientation="vertical" size={8} style={{ width: '100%' }}>
              {choices.length > 8 ? (
                <Input
                  allowClear
                  placeholder={t('designated.filter')}
                  value={filter}
                  onChange={(e) => setFilter(e.target.value)}
                  data-testid="designated-labs-filter"
                />
              ) : null}
              {partners.data && choices.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('designated.noPartners')} />
              ) : (
                <div style={{ maxHeight: 320, overflowY: 'auto' }}>
                  <Checkbox.Group
                    value={chosen}
                    onChange={(v) => {
                      // Hidden (filtered-out) choices stay as they were.
                      const visible = new Set(shown.map((l) => l.code));
                      setChosen([...chosen.filter((c) => !visible.has(c)), ...v.map(String)]);
                    }}
                    style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
                  >
                    {shown.map((l) => (
                      <Checkbox key={l.code} value={l.code} data-testid={`designated-lab-option-${l.code}`}>
                        {l.name} <Typography.Text type="secondary">({l.code})</Typography.Text>
                        {l.partner ? null : (
                          <Tag color="orange" style={{ marginInlineStart: 8 }}>
                            {t('designated.notPartner')}
                          </Tag>
                        )}
                      </Checkbox>
                    ))}
                  </Checkbox.Group>
                </div>
              )}
              {current.data && chosen.length === 0 ? (
                <Alert type="warning" showIcon title={t('designated.noneChosen')} />
              ) : null}
              <Typography.Text type="secondary" data-testid="designated-labs-count">
                {t('designated.selected', { n: chosen.length })}
              </Typography.Text>
            </Space>
          ) : current.data && current.data.list.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('designated.none')} />
          ) : (
            <Space wrap>
              {(current.data?.list ?? []).map((l) => (
                <Tag key={l.code} data-testid={`designated-lab-${l.code}`}>
                  {l.name} ({l.code})
                </Tag>
              ))}
            </Space>
          )}
        </Spin>
      </div>
    </Modal>
  );
}
