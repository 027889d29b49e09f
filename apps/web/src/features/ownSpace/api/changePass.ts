import { http } from '../../../lib/http';

export const changePass = (body: { oldPassword: string; password: string; confirmPassword: string }) =>
  http.write<null>('user/changePass', body);
