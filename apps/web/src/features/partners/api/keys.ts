import type { PartnerQuery } from './types';

/** Query keys of the partners feature, as prefixes: a partnership's change invalidates `all` (lists, pages, labs). */
export const partnerKeys = {
  all: ['partners'] as const,
  list: (q: PartnerQuery) => ['partners', 'list', q] as const,
  detail: (partnerCode: string) => ['partners', 'detail', partnerCode] as const,
  // The clinic's accepted partner laboratories, every page of the list (read by the devices feature).
  labs: ['partners', 'labs'] as const,
  // Where the clinic can send orders (order/labs, read by the orders feature's send dialog without partner:view).
  sendable: ['partners', 'sendable'] as const,
};
