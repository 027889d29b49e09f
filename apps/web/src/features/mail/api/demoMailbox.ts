import { http } from '../../../lib/http';
import type { Mail } from '../components/MailList';

/** Demo mode only, no token: the mails sent to one address. */
export const demoMailbox = (email: string) =>
  http.get<{ total: number; list: Mail[] }>('mail/demoMailbox', { email }, { auth: false });
