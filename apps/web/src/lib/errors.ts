/** The text for a failed call the page shows itself (silent calls): mapped message, else the server's. */
export function messageOf(err: unknown, translate: (code: number, msg: string) => string | null): string {
  const e = err as { code?: unknown; msg?: unknown; message?: unknown } | null;
  const msg = typeof e?.msg === 'string' ? e.msg : typeof e?.message === 'string' ? e.message : '';
  return (typeof e?.code === 'number' ? translate(e.code, msg) : null) || msg || 'Something went wrong';
}
