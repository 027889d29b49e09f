import { http } from '../../../lib/http';

export const emptyRecycleBin = () => http.post<null>('case/recycleBin/empty', {});
