import { http } from '../../../lib/http';

export const getChangePassEmail = (account: string) =>
  http.post<{ email: string }>('user/getChangePassEmail', { account }, { auth: false });
