import { http } from '../../../lib/http';

export const checkUsernameExist = (account: string) =>
  http.post<{ exists: boolean }>('user/checkUsernameExist', { account }, { auth: false, silent: true });
