/** Query keys of the apps feature. A pending authorization request is read once and never invalidated. */
export const appsKeys = {
  interaction: (uid: string | null, appid: string | null) => ['appInteraction', uid, appid] as const,
  /** The super administrator's register of apps: every change reads it again. */
  registered: ['apps', 'registered'] as const,
};
