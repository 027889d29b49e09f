import type { z } from 'zod';
import type { LabRef as LabRefSchema } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { deviceKeys } from './keys';

export type LabRef = z.infer<typeof LabRefSchema>;

/** Limit type 1: the laboratories a clinic's scanner may send to. */
export const listDesignatedLabs = (serialNumber: string) =>
  http.post<{ list: LabRef[] }>('equipment/listDesignatedLabs', { serialNumber });
export const designatedLabsQuery = (serialNumber: string) =>
  queryOptions({
    queryKey: deviceKeys.designatedLabs(serialNumber),
    queryFn: () => listDesignatedLabs(serialNumber),
    staleTime: 0,
  });
/** Replaces the list; lab codes are the partner laboratories' organization codes. */
export const saveDesignatedLabs = (body: { serialNumber: string; labCodes: string[] }) =>
  http.write<null>('equipment/saveDesignatedLabs', body);
