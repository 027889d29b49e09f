import { http } from '../../../lib/http';

/** Whether an account name, email or phone number is taken (the form asks as it is typed). */
export const isTaken = (field: 'account' | 'email' | 'phone', value: string) =>
  http.post<{ exists: boolean }>('user/checkUsernameExist', { [field]: value }, { silent: true }).then((r) => r.exists);
