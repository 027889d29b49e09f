import type { z } from 'zod';
import type { AppActivated, AppActivation as AppActivationSchema, AppLaunch } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { appsKeys } from './keys';

export type AppActivation = z.infer<typeof AppActivationSchema>;

/** What a mailed activation link names (read once: activating uses the link up). */
export const activationQuery = (sign: string) =>
  queryOptions({
    queryKey: appsKeys.activation(sign),
    queryFn: () => http.write<AppActivation>('app/activation', { sign }, { auth: false, silent: true }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

export const activateApp = (sign: string) =>
  http.write<z.infer<typeof AppActivated>>('app/activate', { sign }, { auth: false, silent: true });

/** Where the portal opens an app for the signed-in user (its registered launch address). */
export const launchQuery = (appCode: string) =>
  queryOptions({
    queryKey: appsKeys.launch(appCode),
    queryFn: () => http.write<z.infer<typeof AppLaunch>>('app/launch', { appCode }, { silent: true }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
