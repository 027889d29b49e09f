import { http } from '../../../lib/http';
import type { RequiredFieldRule } from './types';

export const saveRequiredFields = (rules: RequiredFieldRule[]) =>
  http.write<null>('order/saveRequiredFields', { rules });
