/** Query keys of the account feature: each change invalidates its own key (`detail`, `authApps` or `contacts`). */
export const accountKeys = {
  detail: ['account', 'detail'] as const,
  authApps: ['account', 'authApps'] as const,
  contacts: ['account', 'contacts'] as const,
  // One-shot confirmations of a mailed link, outside the `account` prefix and never invalidated.
  emailChangeConfirm: (id: string) => ['emailChangeConfirm', id] as const,
  contactVerify: (verifyCode: string) => ['contactVerify', verifyCode] as const,
};
