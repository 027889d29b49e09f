import { http } from '../../../lib/http';

/** Sensitive: a temporary password the administrator hands over; the user must change it at next sign-in. */
export const resetUserPassword = (userCode: string) =>
  http.write<{ temporaryPassword: string }>('user/resetPass', { userCode });
