import type { RegisterBody } from '@portal/contracts';
import { http } from '../../../lib/http';

export interface RegisterResult {
  userCode: string;
  email: string;
  orgType: number;
}
/** Clinics register through user/regist. */
export const registerClinic = (body: RegisterBody) =>
  http.write<RegisterResult>('user/regist', body, { auth: false, silent: true });
