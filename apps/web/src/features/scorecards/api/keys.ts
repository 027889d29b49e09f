/** Query keys of scorecards: a laboratory's own card, or the card of the laboratory behind a clinic's partnership. */
export const scorecardKeys = {
  all: ['scorecards'] as const,
  lab: (partnerCode?: string) => ['scorecards', partnerCode ?? ''] as const,
};
