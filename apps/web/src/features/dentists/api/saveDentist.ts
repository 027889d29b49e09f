import { http } from '../../../lib/http';

/** Silent: the form shows 'This name is already in use.' next to the field. */
export const saveDentist = (body: { id?: number; name: string }) =>
  http.write<unknown>('dentist/save', body, { silent: true });
