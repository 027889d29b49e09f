import { ERRORS, type ErrorName } from '@portal/contracts';

/** A failure the client can act on: a catalogue entry, its message parameters and optional data. */
export class AppError extends Error {
  readonly entry: (typeof ERRORS)[ErrorName];
  constructor(
    readonly errorName: ErrorName,
    readonly params: Record<string, string | number> = {},
    readonly data: unknown = null,
    /** A message key that replaces the catalogue's, e.g. a field rule. */
    readonly messageKey?: string,
  ) {
    super(errorName);
    this.entry = ERRORS[errorName];
  }
}

export function fail(name: ErrorName, params?: Record<string, string | number>, data?: unknown): never {
  throw new AppError(name, params, data ?? null);
}

/** A field-level validation failure, answered as PARAM_INVALID with the field named. */
export function invalidField(field: string, messageKey: string, params: Record<string, string | number> = {}): never {
  throw new AppError('PARAM_INVALID', { field, ...params }, { field }, messageKey);
}
