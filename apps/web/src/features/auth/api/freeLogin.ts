import type { TokenPair } from '@portal/contracts';
import { http } from '../../../lib/http';

/** Signs in with a one-time sign made by another signed-in session (the scanner's desktop software). */
export const freeLogin = (sign: string) =>
  http.write<TokenPair>('user/free-login', { sign }, { silent: true, auth: false });

/** Ends the session this browser had before a jump (its failure changes nothing: the new session replaces it). */
export const endPreviousSession = () =>
  http.write('user/logout', {}, { silent: true, auth: false }).catch(() => undefined);
