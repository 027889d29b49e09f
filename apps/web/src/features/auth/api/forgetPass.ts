import { http } from '../../../lib/http';

export const forgetPass = (account: string) =>
  http.post<{ email: string }>('user/forgetPass', { account }, { auth: false });
