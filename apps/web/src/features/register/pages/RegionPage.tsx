import { useState } from 'react';
import { Alert, Button, Radio } from 'antd';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { REGIONS, type Region } from '@portal/contracts';
import { PublicPage } from '../../../components/PublicPage';

export default function RegionPage() {
  const { t } = useTranslation('register');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const type = params.get('type');
  const [region, setRegion] = useState<Region | null>(null);
  if (type !== 'clinic' && type !== 'lab') return <Navigate to="/register" replace />;
  return (
    <PublicPage title={t('region.title')} width={520}>
      <Radio.Group className="region-list" value={region} onChange={(e) => setRegion(e.target.value as Region)}>
        {REGIONS.map((r) => (
          <Radio key={r} value={r} data-testid={`region-${r}`}>
            {t(`region.${r}`)}
          </Radio>
        ))}
      </Radio.Group>
      <Alert type="warning" showIcon title={t('region.permanent')} className="form-alert" />
      <Button
        type="primary"
        block
        disabled={!region}
        data-testid="region-next"
        onClick={() => void navigate(`/self-register?type=${type}&region=${region}`)}
      >
        {t('region.next')}
      </Button>
      <div className="public-links">
        <Link to="/register">{t('common:back')}</Link>
      </div>
    </PublicPage>
  );
}
