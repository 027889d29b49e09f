import type { z } from 'zod';
import type { AppInteraction as AppInteractionSchema, AppInteractionDone } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { appsKeys } from './keys';

export type AppInteraction = z.infer<typeof AppInteractionSchema>;
type Done = z.infer<typeof AppInteractionDone>;

/** What the app asks for. The browser's cookie (set by the provider) ties the request to this browser. */
export const interactionQuery = (uid: string | null, appid: string | null) =>
  queryOptions({
    queryKey: appsKeys.interaction(uid, appid),
    queryFn: () =>
      http.write<AppInteraction>(
        'app/interaction',
        { ...(uid ? { uid } : {}), ...(appid ? { appid } : {}) },
        {
          silent: true,
        },
      ),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

export const consentToApp = (uid: string) => http.write<Done>('app/consent', { uid }, { silent: true });
export const denyApp = (uid: string) => http.write<Done>('app/deny', { uid }, { silent: true });
