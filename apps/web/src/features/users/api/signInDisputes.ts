import { queryOptions } from '@tanstack/react-query';
import type { SignInDispute } from '@portal/contracts';
import { http } from '../../../lib/http';
import { userKeys } from './keys';

/** Sign-in identifiers two users share since before they were one namespace (super administrator). */
export const listSignInDisputes = () => http.post<{ list: SignInDispute[] }>('user/signInDisputes', {});
export const signInDisputesQuery = () =>
  queryOptions({ queryKey: userKeys.signInDisputes, queryFn: listSignInDisputes });
