import type { CompanyRegisterBody } from '@portal/contracts';
import { http } from '../../../lib/http';
import type { RegisterResult } from './register';

/** Laboratories register with the organization details their review needs. */
export const registerCompany = (body: CompanyRegisterBody) =>
  http.write<RegisterResult>('company/companyRegist', body, { auth: false, silent: true });
