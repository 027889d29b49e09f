/** Query keys of the dentists feature: the list is its only query, so invalidating `all` refreshes it. */
export const dentistKeys = {
  all: ['dentists'] as const,
};
