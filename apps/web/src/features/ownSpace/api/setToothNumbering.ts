import type { ToothNumberingSystem } from '@portal/contracts';
import { http } from '../../../lib/http';

export const setToothNumbering = (toothNumberingSystem: ToothNumberingSystem) =>
  http.write<null>('user/setToothNumberingSystem', { toothNumberingSystem });
