import { Badge, Button } from 'antd';
import NotificationOutlined from '@ant-design/icons/NotificationOutlined';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { markQuery } from '../api/updateLog';

/** The header's "what's new": shown once the update log has an entry, with a dot until the user opens the newest. */
export function WhatsNewButton() {
  const { t } = useTranslation('whatsnew');
  const navigate = useNavigate();
  const mark = useQuery(markQuery());
  const latestId = mark.data?.latestId;
  if (!latestId) return null;
  const unseen = mark.data?.unseen === true;
  return (
    <Badge dot={unseen} offset={[-6, 6]} data-testid="whatsnew-mark" data-unseen={unseen}>
      <Button
        type="text"
        icon={<NotificationOutlined aria-hidden />}
        aria-label={unseen ? t('button.unseen') : t('button.label')}
        title={t('button.label')}
        data-testid="whatsnew-button"
        onClick={() => void navigate(`/whatsnew/${latestId}`)}
      />
    </Badge>
  );
}
