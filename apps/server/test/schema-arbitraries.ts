import fc from 'fast-check';
import { isCalendarDate } from '@portal/contracts';
import type { JsonSchema } from './api-operations.js';

/**
 * fast-check arbitraries from the JSON Schema of the API document (what clients see): valid values that pass the
 * schema, with real identifiers mixed in, and for every field the hostile classes that broke the server before.
 */

/** Real values for a field by its name (identifiers of the fixtures), or undefined to generate from the schema. */
export type Pools = (field: string) => readonly unknown[] | undefined;

/** Text people type: letters of many scripts, digits, punctuation, quotes, markup, emoji, tab and line breaks. */
const TEXT_CHARS = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...'äöüßéèçñøåæœłśźżčšžğış',
  ...'αβγδΩжзийЯ漢字かなカナ한글עבריתعربي',
  ...' -_.,;:!?@#%&*()[]{}<>/\\\'"`~^|+=$',
  '😀',
  '👩‍⚕️',
  '\t',
  '\n',
  '\r\n',
];
const text = (min: number, max: number) =>
  fc
    .tuple(
      fc.constantFrom(...TEXT_CHARS.filter((c) => c.trim())),
      fc.array(fc.constantFrom(...TEXT_CHARS), { minLength: Math.max(0, min - 1), maxLength: Math.max(0, max - 1) }),
    )
    .map(([first, rest]) => first + rest.join(''))
    .filter((s) => s.trim().length >= min && s.length <= max && s.trim() === s);

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const calendarDay = fc
  .record({
    y: fc.oneof({ arbitrary: fc.integer({ min: 1990, max: 2035 }), weight: 4 }, fc.integer({ min: 1900, max: 2999 })),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 31 }),
  })
  .map(({ y, m, d }) => `${pad(y, 4)}-${pad(m)}-${pad(Math.min(d, daysIn(y, m)))}`);
const dateTime = fc
  .tuple(
    calendarDay,
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.constantFrom('Z', '+02:00', '-05:30'),
  )
  .map(([day, h, m, zone]) => `${day}T${pad(h)}:${pad(m)}:00${zone}`);
const email = fc
  .tuple(
    fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,9}[a-z0-9]$/),
    fc.constantFrom('com', 'test', 'dental'),
  )
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 200;
  if (schema.format === 'date') return calendarDay;
  if (schema.format === 'date-time') return dateTime;
  if (schema.format === 'email') return email.filter((e) => e.length <= max);
  if (schema.pattern)
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= max);
  const short = Math.min(max, 24);
  return fc.oneof(
    { arbitrary: text(Math.max(min, 1), Math.max(short, Math.min(min, max))), weight: 5 },
    { arbitrary: text(Math.max(min, 1), max), weight: 1 },
  );
}

function integerArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
  const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
  const clamp = (n: number) => Math.max(min, Math.min(max, n));
  return fc.oneof(
    { arbitrary: fc.integer({ min: clamp(1), max: clamp(100) }), weight: 6 },
    { arbitrary: fc.integer({ min: clamp(0), max: clamp(5) }), weight: 2 },
    { arbitrary: fc.integer({ min, max }), weight: 1 },
  );
}

/** Values the schema accepts; a field with a pool takes a real value most of the time. */
export function validArbitrary(schema: JsonSchema, pools: Pools, name = ''): fc.Arbitrary<unknown> {
  const pool = name ? pools(name)?.filter((v) => accepts(schema, v)) : undefined;
  const generated = generatedArbitrary(schema, pools, name);
  if (pool?.length)
    return fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 3 }, { arbitrary: generated, weight: 1 });
  return generated;
}

function generatedArbitrary(schema: JsonSchema, pools: Pools, name: string): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => validArbitrary(s, pools, name)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
    case 'number':
      return integerArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const max = Math.min(schema.maxItems ?? 5, Math.max(schema.minItems ?? 0, 3));
      const itemPool = pools(name);
      const item = itemPool?.length
        ? fc.oneof(
            { arbitrary: fc.constantFrom(...itemPool.filter((v) => accepts(schema.items ?? {}, v))), weight: 4 },
            { arbitrary: validArbitrary(schema.items ?? {}, pools), weight: 1 },
          )
        : validArbitrary(schema.items ?? {}, pools);
      return fc.array(item, { minLength: schema.minItems ?? 0, maxLength: max });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(properties).map(
        ([key, s]) => [key, validArbitrary(s, pools, key)] as [string, fc.Arbitrary<unknown>],
      );
      return fc.record(Object.fromEntries(entries), { requiredKeys: [...required] });
    }
    default:
      return fc.constant(undefined);
  }
}

/** Whether a value fits the schema's type and bounds (pool values are checked against the field they fill). */
export function accepts(schema: JsonSchema, value: unknown): boolean {
  // OpenAPI 3.0 writes an optional value as `nullable: true` beside its type.
  if (value === null && (schema as { nullable?: boolean }).nullable) return true;
  if (schema.anyOf) return schema.anyOf.some((s) => accepts(s, value));
  if (schema.enum) return schema.enum.includes(value);
  switch (schema.type) {
    case 'string':
      return (
        typeof value === 'string' &&
        (schema.format !== 'date' || isCalendarDate(value)) &&
        (schema.format !== 'date-time' || (/^\d{4}-\d\d-\d\dT/.test(value) && isCalendarDate(value.slice(0, 10)))) &&
        (schema.format !== 'email' || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) &&
        value.length >= (schema.minLength ?? 0) &&
        value.length <= (schema.maxLength ?? Infinity) &&
        (!schema.pattern || new RegExp(schema.pattern).test(value))
      );
    case 'integer':
    case 'number':
      return (
        typeof value === 'number' &&
        (schema.type === 'number' || Number.isInteger(value)) &&
        value >= (schema.minimum ?? -Infinity) &&
        value <= (schema.maximum ?? Infinity)
      );
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value) && value.every((v) => accepts(schema.items ?? {}, v));
    default:
      return true;
  }
}

/**
 * Whether the server surely refuses a value for a field. It reads text as numbers and booleans ('12', 'true': a
 * form-encoded body carries nothing else) and some lists as comma-separated text, so text given for a number,
 * a boolean or a list is refused only when it could not be read as one.
 */
export function surelyRefused(schema: JsonSchema, value: unknown): boolean {
  if (accepts(schema, value)) return false;
  const types = new Set(schema.anyOf ? schema.anyOf.map((a) => a.type) : [schema.type]);
  if (typeof value === 'string') {
    if (types.has('array')) return false;
    if ((types.has('integer') || types.has('number')) && /^-?\d+$/.test(value.trim()))
      return !accepts(schema, Number(value));
    if (types.has('boolean') && ['true', 'false', '1', '0', 'on', ''].includes(value)) return false;
  }
  return true;
}

/** A field a hostile value can be put in: its path in the request and its schema. */
export interface Target {
  path: Array<string | number>;
  schema: JsonSchema;
  required: boolean;
}

/** Every field of an object schema, nested ones and the first item of arrays included. */
export function targetsOf(schema: JsonSchema, path: Array<string | number> = []): Target[] {
  const out: Target[] = [];
  const required = new Set(schema.required ?? []);
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const at = [...path, key];
    out.push({ path: at, schema: child, required: required.has(key) });
    if (child.type === 'array' && child.items) {
      out.push({ path: [...at, 0], schema: child.items, required: false });
      if (child.items.type === 'object') out.push(...targetsOf(child.items, [...at, 0]));
    }
    if (child.type === 'object') out.push(...targetsOf(child, at));
  }
  return out;
}

/** The name the server's answer gives a field: 'teeth.0.shade'. */
export const fieldName = (path: Array<string | number>) => path.join('.');

/** A hostile value for a field; `refused` when the schema itself refuses it (the answer must be 400 naming it). */
export interface Hostile {
  value: unknown;
  refused: boolean;
}
export type HostileKind =
  | 'control characters'
  | 'lone surrogates'
  | 'impossible dates'
  | 'huge and negative numbers'
  | 'over-long'
  | 'wrong types'
  | 'missing';
export const HOSTILE_KINDS: readonly HostileKind[] = [
  'control characters',
  'lone surrogates',
  'impossible dates',
  'huge and negative numbers',
  'over-long',
  'wrong types',
  'missing',
];

export const CONTROL_TEXT = ['a\u0000b', '\u0000', 'x\u0007', '\u001b[2J', 'tab\u000bvertical', 'del\u007f'];
export const LONE_SURROGATES = ['\uD800', 'a\uDC00b', '\uDBFF\uDBFF', 'end\uD83D'];
export const IMPOSSIBLE_DATES = [
  '2026-02-30',
  '2025-02-29',
  '2026-13-45',
  '0000-00-00',
  '1899-12-31',
  '10000-01-01',
  '2026-1-5',
  '2026-02-30T10:00:00Z',
  '0000-01-01T00:00:00Z',
];
export const HOSTILE_NUMBERS = [
  1e20,
  -1e20,
  2 ** 53,
  -(2 ** 53) - 2,
  1.5,
  -0.5,
  1e308,
  -1,
  0,
  '99999999999999999999',
  '-99999999999999999999',
  '1e400',
  'NaN',
  'Infinity',
];
const WRONG_TYPES: Record<string, unknown[]> = {
  string: [123, true, { a: 1 }, ['x'], null],
  integer: ['abc', true, { a: 1 }, [1], null, 1.5],
  number: ['abc', true, { a: 1 }, [1], null],
  boolean: ['perhaps', 2, { a: 1 }, [true], null],
  array: ['x', { a: 1 }, 7, null, true],
  object: ['x', [1], 7, null],
};

/** Every hostile class for a field with its candidate values; `sample` picks one value per class. */
export function hostileValues(target: Target): Record<HostileKind, Hostile[]> {
  const s = target.schema;
  const types = new Set(s.anyOf ? s.anyOf.map((a) => a.type) : [s.type]);
  const isDate = [s, ...(s.anyOf ?? [])].some((a) => a.format === 'date' || a.format === 'date-time');
  const maxLength = Math.max(...[s, ...(s.anyOf ?? [])].map((a) => a.maxLength ?? -1));
  const allOf = (values: unknown[]) => values.map((value) => ({ value, refused: surelyRefused(s, value) }));
  const wrong = [...types].flatMap((t) => WRONG_TYPES[t ?? 'string'] ?? []).filter((v) => surelyRefused(s, v));
  return {
    // Whatever the field's type, text no field may hold is refused first, naming the field.
    'control characters': CONTROL_TEXT.map((value) => ({ value, refused: true })),
    'lone surrogates': LONE_SURROGATES.map((value) => ({ value, refused: true })),
    'impossible dates': IMPOSSIBLE_DATES.map((value) => ({ value, refused: isDate || surelyRefused(s, value) })),
    'huge and negative numbers': allOf(HOSTILE_NUMBERS),
    'over-long':
      types.has('array') && s.maxItems !== undefined
        ? [{ value: Array.from({ length: s.maxItems + 1 }, () => 'x'), refused: true }]
        : maxLength >= 0
          ? [
              { value: 'x'.repeat(maxLength + 1), refused: true },
              { value: 'y'.repeat(Math.max(maxLength + 1, 20_000)), refused: true },
            ]
          : allOf(['z'.repeat(20_000)]),
    'wrong types': wrong.map((value) => ({ value, refused: true })),
    missing: target.required ? [{ value: undefined, refused: true }] : [],
  };
}

/** A copy of `root` with `value` at `path` (undefined removes the field); containers are made as needed. */
export function withValue(root: unknown, path: Array<string | number>, value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(root) ? [...root] : [];
    list[head] = withValue(list[head], rest, value);
    return list;
  }
  const obj = root && typeof root === 'object' && !Array.isArray(root) ? { ...(root as Record<string, unknown>) } : {};
  const child = withValue(obj[head!], rest, value);
  if (child === undefined) delete obj[head!];
  else obj[head!] = child;
  return obj;
}
