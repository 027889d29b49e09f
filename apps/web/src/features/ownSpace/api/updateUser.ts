import type { Language } from '@portal/contracts';
import { http } from '../../../lib/http';

export interface UpdateUserBody {
  displayName?: string;
  nickname?: string;
  phone?: string;
  gender?: 1 | 2;
  language?: Language;
  receiveEmail?: boolean;
}
export const updateUser = (body: UpdateUserBody) => http.write<null>('user/update', body);
