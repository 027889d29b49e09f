import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLOR: Record<number, string> = { 0: 'gold', 1: 'green', 2: 'default' };

/** 0 inactivated (no password set yet), 1 activated, 2 disabled (§4). */
export function UserStatusTag({ status }: { status: number }) {
  const { t } = useTranslation('users');
  return (
    <Tag color={COLOR[status]} data-testid="user-status" data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
}
