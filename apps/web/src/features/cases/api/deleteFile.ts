import { http } from '../../../lib/http';

export const deleteFile = (fileCode: string) => http.post<null>('file/delete', { fileCode });
