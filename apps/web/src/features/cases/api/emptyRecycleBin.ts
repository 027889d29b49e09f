import { http } from '../../../lib/http';

export const emptyRecycleBin = () => http.write<null>('case/recycleBin/empty', {});
