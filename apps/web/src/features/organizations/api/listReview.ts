import type { z } from 'zod';
import type { PendingLab } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { organizationKeys } from './keys';

export type ReviewLab = z.infer<typeof PendingLab>;
export interface ReviewQuery {
  pageNum: number;
  pageSize: number;
  reviewStatus: 0 | 1 | 2;
}
export const listReview = (q: ReviewQuery) => http.post<{ total: number; list: ReviewLab[] }>('company/listReview', q);
export const listReviewQuery = (q: ReviewQuery) =>
  queryOptions({ queryKey: organizationKeys.review(q), queryFn: () => listReview(q) });
