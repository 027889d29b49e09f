import { http } from '../../../lib/http';

export const resendActivate = (account: string) =>
  http.write<null>('user/resend_activate', { account }, { auth: false });
