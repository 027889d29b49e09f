import { Card } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import MedicineBoxOutlined from '@ant-design/icons/MedicineBoxOutlined';
import ExperimentOutlined from '@ant-design/icons/ExperimentOutlined';
import { PublicPage } from '../../../components/PublicPage';

export default function RegisterWayPage() {
  const { t } = useTranslation('register');
  const navigate = useNavigate();
  const ways = [
    { type: 'clinic', icon: <MedicineBoxOutlined aria-hidden />, title: t('way.clinic'), text: t('way.clinicText') },
    { type: 'lab', icon: <ExperimentOutlined aria-hidden />, title: t('way.lab'), text: t('way.labText') },
  ];
  return (
    <PublicPage title={t('way.title')} width={560}>
      <div className="choice-grid">
        {ways.map((w) => (
          <Card
            key={w.type}
            hoverable
            data-testid={`register-way-${w.type}`}
            onClick={() => void navigate(`/region?type=${w.type}`)}
          >
            <div className="choice-icon">{w.icon}</div>
            <h3>{w.title}</h3>
            <p>{w.text}</p>
          </Card>
        ))}
      </div>
      <div className="public-links">
        <Link to="/login">{t('common:backToLogin')}</Link>
      </div>
    </PublicPage>
  );
}
