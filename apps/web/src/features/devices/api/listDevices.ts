import type { z } from 'zod';
import type { Device as DeviceSchema } from '@portal/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { deviceKeys } from './keys';

export type Device = z.infer<typeof DeviceSchema>;
export interface DeviceQuery {
  pageNum: number;
  pageSize: number;
  keyword?: string;
}
export const listDevices = (q: DeviceQuery) =>
  http.post<{ total: number; list: Device[] }>('equipment/listEquipment', q);
export const listDevicesQuery = (q: DeviceQuery) =>
  queryOptions({ queryKey: deviceKeys.list(q), queryFn: () => listDevices(q), placeholderData: keepPreviousData });
