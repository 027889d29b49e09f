import { http } from '../../../lib/http';

export type UserChange = 'enable' | 'disable' | 'delete';
const PATH: Record<UserChange, string> = { enable: 'user/enable', disable: 'user/disable', delete: 'user/delByIds' };

/** Enables, disables or deletes users, all or none. Disabling and deleting are sensitive (password prompt). */
export const changeUsers = (change: UserChange, userCodes: string[]) =>
  http.write<{ count: number }>(PATH[change], { userCodes });
