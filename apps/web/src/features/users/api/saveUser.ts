import type { ManagedUser, SaveUserBody } from '@portal/contracts';
import { http } from '../../../lib/http';

/** Adds a user (no userCode; the user is mailed a link to set a password) or edits one. */
export const saveUser = (body: SaveUserBody) => http.write<ManagedUser>('user/save_or_update', body, { silent: true });
