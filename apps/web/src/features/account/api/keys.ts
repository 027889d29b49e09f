/** What this feature's data is called in the query cache. */
export const accountKeys = {
  detail: ['account', 'detail'] as const,
  authApps: ['account', 'authApps'] as const,
  contacts: ['account', 'contacts'] as const,
};
