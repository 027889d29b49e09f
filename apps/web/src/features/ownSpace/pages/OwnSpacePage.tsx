import { Col, Row } from 'antd';
import { useSession } from '../../../lib/session';
import { AccountInfoCard } from '../components/AccountInfoCard';
import { OrganizationCard } from '../components/OrganizationCard';
import { ToothNumberingCard } from '../components/ToothNumberingCard';
import { ChangePasswordCard } from '../components/ChangePasswordCard';

export default function OwnSpacePage() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <Row gutter={[16, 16]} data-testid="own-space">
      <Col xs={24} lg={12}>
        <AccountInfoCard user={user} />
      </Col>
      <Col xs={24} lg={12}>
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <OrganizationCard user={user} />
          </Col>
          <Col span={24}>
            <ToothNumberingCard value={user.toothNumberingSystem} />
          </Col>
          <Col span={24}>
            <ChangePasswordCard />
          </Col>
        </Row>
      </Col>
    </Row>
  );
}
