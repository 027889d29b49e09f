import { RoleListQuery } from '@portal/contracts';
import { requestCodec } from '../../../lib/listState';

/** The role list in the address (`?keyword=lab&pageNum=2`), read through the role list's request schema. */
export const roleListCodec = requestCodec(RoleListQuery, { pageNum: 1, pageSize: 20 });
