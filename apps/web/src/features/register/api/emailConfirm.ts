import { http } from '../../../lib/http';

export interface EmailConfirmResult {
  orgType: number;
  reviewStatus: number;
  account: string;
}
export const emailConfirm = (id: string) =>
  http.write<EmailConfirmResult>('user/email.confirm', { id }, { auth: false, silent: true });
