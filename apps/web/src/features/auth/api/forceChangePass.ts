import { http } from '../../../lib/http';

export const forceChangePass = (body: { password: string; confirmPassword: string }) =>
  http.post<null>('user/forceChangePass', body);
