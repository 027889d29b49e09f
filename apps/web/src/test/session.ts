import type { UserInfo } from '@portal/contracts';
import { setProfile } from '../lib/session';

/** A signed-in user of an organization of this type (2 clinic, 3 laboratory, 4 dealer, 5 OEM). */
export function testUser(orgType: number, patch: Partial<UserInfo> = {}): UserInfo {
  return {
    userCode: 'u1',
    displayName: 'Dr. Who',
    role: { name: 'Admin' },
    organization: { code: 'me', name: 'Me', type: orgType, region: 'eu', status: 1 },
    ...patch,
  } as unknown as UserInfo;
}

/** Signs that user in with these permissions (no menu). */
export function signInAs(orgType: number, permissions: string[] = [], patch: Partial<UserInfo> = {}) {
  setProfile(testUser(orgType, patch), [], permissions);
}
