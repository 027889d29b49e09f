import { http } from '../../../lib/http';

/** Validates a reset link before the form shows (2020 expired, 2021 invalid). */
export const forgetPassEmailConfirm = (id: string) =>
  http.write<{ account: string }>('user/forgetPassEmailConfirm', { id }, { auth: false, silent: true });
