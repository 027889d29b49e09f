import type { z } from 'zod';
import type { Dentist as DentistSchema } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { dentistKeys } from './keys';

export type Dentist = z.infer<typeof DentistSchema>;
export const listDentists = () => http.post<{ list: Dentist[] }>('dentist/list', {});
export const listDentistsQuery = () =>
  queryOptions({ queryKey: dentistKeys.all, queryFn: listDentists, staleTime: 60_000 });
