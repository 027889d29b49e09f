import { http } from '../../../lib/http';

export const forgetPass = (account: string) =>
  http.write<{ email: string }>('user/forgetPass', { account }, { auth: false });
