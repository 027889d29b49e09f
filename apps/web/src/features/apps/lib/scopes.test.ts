import { describe, expect, it } from 'vitest';
import { sameOriginTarget, scopeLabel } from './scopes';

describe('app authorization helpers', () => {
  it('follows only addresses of this site', () => {
    const origin = 'https://portal.example';
    expect(sameOriginTarget('/oidc/auth/abc', origin)).toBe('https://portal.example/oidc/auth/abc');
    expect(sameOriginTarget('https://portal.example/oidc/auth/x?y=1', origin)).toBe(
      'https://portal.example/oidc/auth/x?y=1',
    );
    for (const elsewhere of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)'])
      expect(sameOriginTarget(elsewhere, origin)).toBe(origin);
  });

  it('names a scope by its key, and an unknown one by itself', () => {
    const keys: string[] = [];
    const t = ((key: string, o: { defaultValue: string }) => {
      keys.push(key);
      return key === 'scope.cases_read' ? 'Read cases' : o.defaultValue;
    }) as never;
    expect(scopeLabel(t, 'cases:read')).toBe('Read cases');
    expect(scopeLabel(t, 'future:thing')).toBe('future:thing');
    expect(keys).toEqual(['scope.cases_read', 'scope.future_thing']);
  });
});
