/** Query keys of the auth feature: the one-shot check of a reset link, never invalidated (dropped once not shown). */
export const authKeys = {
  resetLink: (id: string) => ['resetLink', id] as const,
};
