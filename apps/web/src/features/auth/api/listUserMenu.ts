import type { MenuItem } from '@portal/contracts';
import { http } from '../../../lib/http';

export const listUserMenu = () => http.post<{ menus: MenuItem[]; permissions: string[] }>('permission/listUserMenu');
