import { http } from '../../../lib/http';

/** Sensitive: the server may answer 1014, the http client then asks for the password and replays. */
export const reviewLab = (body: { organizationCode: string; approve: boolean; reason?: string }) =>
  http.write<null>('company/review', body);
