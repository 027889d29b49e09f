import { DeviceListQuery } from '@portal/contracts';
import { requestCodec } from '../../../lib/listState';

/**
 * The scanner list in the address, read through its request schema. Its parameters carry `device.`
 * (`?tab=scanners&device.keyword=SN1`): it is one panel of the own space, whose tab stays in the address.
 */
export const deviceListCodec = requestCodec(DeviceListQuery, { pageNum: 1, pageSize: 10 }, 'device.');
