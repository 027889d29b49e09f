import type { z } from 'zod';
import type { AppCreateBody, AppCreated as AppCreatedSchema, AppEditBody, RegisteredApp } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { appsKeys } from './keys';

export type { RegisteredApp };
export type AppCreated = z.infer<typeof AppCreatedSchema>;
export type NewApp = z.input<typeof AppCreateBody>;
export type AppChanges = z.input<typeof AppEditBody>;

export const registeredAppsQuery = () =>
  queryOptions({
    queryKey: appsKeys.registered,
    queryFn: () => http.post<{ list: RegisteredApp[] }>('app/list'),
  });

export const registerApp = (body: NewApp) => http.write<AppCreated>('app/create', body);
export const editApp = (body: AppChanges) => http.write<RegisteredApp>('app/edit', body);
export const setAppStatus = (appCode: string, suspend: boolean) =>
  http.write<RegisteredApp>(suspend ? 'app/suspend' : 'app/resume', { appCode });
export const sendActivationLink = (appCode: string) => http.write<RegisteredApp>('app/sendActivation', { appCode });
