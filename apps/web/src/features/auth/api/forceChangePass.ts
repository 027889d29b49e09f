import { http } from '../../../lib/http';

export const forceChangePass = (body: { password: string; confirmPassword: string }) =>
  http.write<null>('user/forceChangePass', body);
