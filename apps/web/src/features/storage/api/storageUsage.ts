import type { z } from 'zod';
import type { StorageUsage as StorageUsageSchema } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { storageKeys } from './keys';

export type StorageUsage = z.infer<typeof StorageUsageSchema>;
export const storageUsage = () => http.post<StorageUsage>('storage/usage', {});
export const storageUsageQuery = () => queryOptions({ queryKey: storageKeys.usage, queryFn: storageUsage });
