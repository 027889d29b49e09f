import { OutboxQuery } from '@portal/contracts';
import { requestCodec } from '../../../lib/listState';

/** The outbox's page in the address (`?pageNum=2`), read through its request schema. */
export const outboxCodec = requestCodec(OutboxQuery, { pageNum: 1, pageSize: 20 });
