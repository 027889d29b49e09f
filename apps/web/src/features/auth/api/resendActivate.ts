import { http } from '../../../lib/http';

export const resendActivate = (account: string) =>
  http.post<null>('user/resend_activate', { account }, { auth: false });
