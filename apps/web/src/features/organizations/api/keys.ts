import type { ReviewQuery } from './listReview';

/** Query keys of the organizations feature, as prefixes: a review decision invalidates `reviews` (every tab, page). */
export const organizationKeys = {
  all: ['organizations'] as const,
  reviews: ['organizations', 'review'] as const,
  review: (q: ReviewQuery) => ['organizations', 'review', q] as const,
};
