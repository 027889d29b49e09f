/** Query keys of the register feature: the one-shot confirmation of a mailed link, never invalidated. */
export const registerKeys = {
  emailConfirm: (id: string) => ['emailConfirm', id] as const,
};
