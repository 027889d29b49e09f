import type { UserInfo } from '@portal/contracts';
import { http } from '../../../lib/http';

export const fetchUserInfo = () => http.post<UserInfo>('user/info');
/** The same call, quiet: whether the session still holds (it renews or refreshes the token as any call does). */
export const checkSession = () => http.post<UserInfo>('user/info', {}, { silent: true });
