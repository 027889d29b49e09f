import { http } from '../../../lib/http';
import type { RequiredFieldRule } from './types';

export const saveRequiredFields = (rules: RequiredFieldRule[]) =>
  http.post<null>('order/saveRequiredFields', { rules });
