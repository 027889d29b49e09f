import { RecycleBinQuery } from '@portal/contracts';
import { requestCodec } from '../../../lib/listState';

/** The recycle bin's page in the address (`?pageNum=2&pageSize=50`), read through its request schema. */
export const recycleBinCodec = requestCodec(RecycleBinQuery, { pageNum: 1, pageSize: 20 });
