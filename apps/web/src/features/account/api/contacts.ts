import type { CompanyContact } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { accountKeys } from './keys';

export type { CompanyContact };
export const contactsQuery = () =>
  queryOptions({
    queryKey: accountKeys.contacts,
    queryFn: () => http.post<{ list: CompanyContact[] }>('companyContact/list'),
  });
export const addContact = (body: { userName: string; email: string }) =>
  http.write<CompanyContact>('companyContact/add', body);
export const resendContactMail = (contactCode: string) =>
  http.write<CompanyContact>('companyContact/resendVerifyEmail', { contactCode });
export const deleteContact = (contactCode: string) => http.write<null>('companyContact/delete', { contactCode });
/** Public: the contact opens the mailed link. */
export const verifyContact = (verifyCode: string) =>
  http.write<{ organizationName: string; email: string }>(
    'companyContact/contactEmailVerify',
    { verifyCode },
    { auth: false, silent: true },
  );
