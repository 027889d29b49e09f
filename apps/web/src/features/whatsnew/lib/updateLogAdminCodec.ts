import { z } from 'zod';
import { UpdateLogListQuery, UsageWeeklyQuery } from '@portal/contracts';
import { requestCodec } from '../../../lib/listState';

export const UPDATE_LOG_ADMIN_TABS = ['entries', 'usage'] as const;

/**
 * The update log screen in the address: its tab, the page of entries and the weeks of usage counts
 * (`?tab=usage&weeks=12`), the page and the weeks read through their request schemas.
 */
export const updateLogAdminCodec = requestCodec(
  z.object({
    tab: z.enum(UPDATE_LOG_ADMIN_TABS).default('entries'),
    pageNum: UpdateLogListQuery.shape.pageNum,
    weeks: UsageWeeklyQuery.shape.weeks,
  }),
  { tab: 'entries', pageNum: 1, weeks: 8 },
);
