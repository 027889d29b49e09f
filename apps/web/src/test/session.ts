import { MenuType, type MenuItem, type UserInfo } from '@portal/contracts';
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

/** Signs that user in with these permissions and menu (none by default: links to other screens are plain text). */
export function signInAs(
  orgType: number,
  permissions: string[] = [],
  patch: Partial<UserInfo> = {},
  menus: MenuItem[] = [],
) {
  setProfile(testUser(orgType, patch), menus, permissions);
}

/** A menu granting the screens at these paths (what ScreenLink links to). */
export function screensMenu(...paths: string[]): MenuItem[] {
  return paths.map((path, i) => ({
    code: `screen${i}`,
    name: `screen${i}`,
    path,
    icon: null,
    showFlag: true,
    showAlways: false,
    component: `screen${i}`,
    type: MenuType.Screen,
    apiPermissions: [],
    children: [],
  }));
}
