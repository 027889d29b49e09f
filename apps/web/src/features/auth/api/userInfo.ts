import type { UserInfo } from '@portal/contracts';
import { http } from '../../../lib/http';

export const fetchUserInfo = () => http.post<UserInfo>('user/info');
