import { http } from '../../../lib/http';

export const deleteFile = (fileCode: string) => http.write<null>('file/delete', { fileCode });
