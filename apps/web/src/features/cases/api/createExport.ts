import { http } from '../../../lib/http';
import type { ExportInfo } from './types';

export const createExport = (body: { caseCodes: string[]; types: string[] }) =>
  http.write<ExportInfo>('export/create', body);
