/** Query keys of the apps feature. A pending authorization request is read once and never invalidated. */
export const appsKeys = {
  interaction: (uid: string | null, appid: string | null) => ['appInteraction', uid, appid] as const,
  /** The super administrator's register of apps: every change reads it again. */
  registered: ['apps', 'registered'] as const,
  activation: (sign: string) => ['appActivation', sign] as const,
  launch: (appCode: string) => ['appLaunch', appCode] as const,
  /** The organization's log of app calls: read on opening and on returning to the tab. */
  callLog: (pageNum: number) => ['apps', 'callLog', pageNum] as const,
};
