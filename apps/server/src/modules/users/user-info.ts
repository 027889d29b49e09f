import { normalizeLanguage, normalizeToothNumbering, type UserInfo } from '@portal/contracts';
import type { UserWithOrgRow } from './users.repository.js';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** The user as the web app sees it (`user/info`). */
export function toUserInfo(u: UserWithOrgRow): UserInfo {
  return {
    userCode: u.user_code,
    account: u.account,
    email: u.email,
    phone: u.phone,
    displayName: u.display_name,
    nickname: u.nickname,
    avatar: u.avatar,
    gender: u.gender,
    status: u.status,
    userType: u.org_type,
    forceChangePassword: u.force_change_password,
    toothNumberingSystem: normalizeToothNumbering(u.tooth_numbering_system),
    msgReceiveType: u.msg_receive_type === 'sms' ? 'sms' : 'station',
    receiveEmail: u.receive_email,
    language: normalizeLanguage(u.language),
    accountChanged: u.account_changed,
    improvementPlan: u.improvement_plan,
    createdAt: iso(u.created_at),
    updatedAt: iso(u.updated_at),
    role: { code: u.role_code, name: u.role_name },
    organization: {
      code: u.org_code,
      name: u.org_name,
      type: u.org_type,
      region: u.org_region as UserInfo['organization']['region'],
      status: u.org_status,
      reviewStatus: u.org_review_status,
      invitationCode: u.org_invitation_code,
    },
  };
}

/** Shows enough of an address to recognise it: j***@example.com. */
export function maskEmail(email: string): string {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 1)}***${name.length > 1 ? name.slice(-1) : ''}@${domain}`;
}
