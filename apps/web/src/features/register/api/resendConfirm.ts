import { http } from '../../../lib/http';

export const resendConfirm = (email: string) => http.post<null>('user/email/resendConfirm', { email }, { auth: false });
