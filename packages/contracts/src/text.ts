/**
 * Characters no text the portal keeps may hold: C0 controls other than tab, line feed and carriage return, DEL,
 * and UTF-16 surrogates that are not part of a pair. PostgreSQL refuses NUL in text and lone surrogates in JSON,
 * and none of them is anything a person typed.
 */
const UNSAFE_TEXT =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasUnsafeText(value: string): boolean {
  return UNSAFE_TEXT.test(value);
}

/**
 * The path ('/teeth/0/shade', '' for the value itself) of the first string or object key in a parsed request
 * that holds an unsafe character, or undefined when there is none. Walks without recursion, so a deeply nested
 * body cannot exhaust the stack.
 */
export function findUnsafeText(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (hasUnsafeText(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${path}/${i}` });
    } else if (v !== null && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        if (hasUnsafeText(key)) return `${path}/${key.replace(UNSAFE_TEXT_GLOBAL, '?')}`;
        stack.push({ value: child, path: `${path}/${key}` });
      }
    }
  }
  return undefined;
}
const UNSAFE_TEXT_GLOBAL = new RegExp(UNSAFE_TEXT.source, 'g');
