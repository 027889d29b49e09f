import { OrganizationListQuery } from '@portal/contracts';
import { requestCodec } from '../../../lib/listState';

/**
 * The organization list in the address, read through its request schema. Its parameters carry `org.`
 * (`?org.status=2&org.pageNum=2`): the page around it has another tab, the registrations to review.
 */
export const organizationListCodec = requestCodec(OrganizationListQuery, { pageNum: 1, pageSize: 20 }, 'org.');
