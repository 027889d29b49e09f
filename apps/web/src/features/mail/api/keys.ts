/** Query keys of the mail feature, as prefixes: invalidating `all` reaches the outbox and the demo mailbox. */
export const mailKeys = {
  all: ['mail'] as const,
  outbox: (q: { pageNum: number; pageSize: number }) => ['mail', 'outbox', q] as const,
  demo: (email: string) => ['mail', 'demo', email] as const,
};
