import type { ManagedRole } from '@portal/contracts';
import { http } from '../../../lib/http';

/** Adds a role (of the caller's organization; the super administrator: one a type shares) or renames one. */
export const saveRole = (body: { roleCode?: string; name: string; orgType?: number }) =>
  http.write<ManagedRole>('user/role/save_or_update', body);
export const deleteRoles = (roleCodes: string[]) => http.write<{ count: number }>('user/role/delByIds', { roleCodes });
export const setDefaultRole = (roleCode: string) => http.write<ManagedRole>('user/role/setDefault', { roleCode });
