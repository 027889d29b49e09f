import { http } from '../../../lib/http';

export const forgetPassResetPass = (body: { id: string; password: string; confirmPassword: string }) =>
  http.write<null>('user/forgetPassResetPass', body, { auth: false });
