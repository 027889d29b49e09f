import { PartnerListQuery } from '@portal/contracts';
import { requestCodec } from '../../../lib/listState';

/** The partner list in the address (`?tab=history&keyword=lab&pageNum=2`), read through its request schema. */
export const partnerListCodec = requestCodec(PartnerListQuery, { tab: 'mine', pageNum: 1, pageSize: 20 });
