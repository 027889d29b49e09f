import type { z } from 'zod';
import type { AuthorizedApp as AuthorizedAppSchema } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { accountKeys } from './keys';

export type AuthorizedApp = z.infer<typeof AuthorizedAppSchema>;
export const authAppsQuery = () =>
  queryOptions({
    queryKey: accountKeys.authApps,
    queryFn: () => http.post<{ list: AuthorizedApp[] }>('user/authApp/list'),
  });
export const revokeAuthApp = (appCode: string) => http.write<null>('user/authApp/revoke', { appCode });
