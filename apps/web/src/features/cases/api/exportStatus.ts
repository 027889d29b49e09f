import { http } from '../../../lib/http';
import type { ExportInfo } from './types';

export const exportStatus = (exportCode: string) => http.post<ExportInfo>('export/status', { exportCode });
