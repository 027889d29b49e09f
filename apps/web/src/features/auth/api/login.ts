import type { LoginBody, TokenPair } from '@portal/contracts';
import { http } from '../../../lib/http';

/** Login failures (1003/1004/1010/3002) carry whether the captcha is now required. */
export interface LoginFailureData {
  failures: number;
  captchaRequired: boolean;
}

// silent: the login page shows each failure in place (§8 "for login, other results are passed back").
export const login = (body: LoginBody) => http.write<TokenPair>('login', body, { silent: true, auth: false });
