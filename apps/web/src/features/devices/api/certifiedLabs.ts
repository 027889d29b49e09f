import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { deviceKeys } from './keys';
import type { LabRef } from './designatedLabs';

/** Limit type 2: the laboratories an OEM certifies for its scanners. */
export const listCertifiedLabs = () => http.post<{ list: LabRef[] }>('equipment/listCertifiedLabs', {});
export const certifiedLabsQuery = () =>
  queryOptions({ queryKey: deviceKeys.certifiedLabs, queryFn: listCertifiedLabs, staleTime: 0 });
/** Replaces the list; answers 2041 (naming the code) when a code is not a laboratory's. */
export const saveCertifiedLabs = (labCodes: string[]) => http.write<null>('equipment/saveCertifiedLabs', { labCodes });
