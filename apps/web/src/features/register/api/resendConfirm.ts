import { http } from '../../../lib/http';

export const resendConfirm = (email: string) =>
  http.write<null>('user/email/resendConfirm', { email }, { auth: false });
