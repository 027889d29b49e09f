/** Query keys of the apps feature: a pending authorization request is read once and never invalidated. */
export const appsKeys = {
  interaction: (uid: string | null, appid: string | null) => ['appInteraction', uid, appid] as const,
};
