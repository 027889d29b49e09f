import { describe, expect, it } from 'vitest';
import { prettyLine, redactUrl } from './logging.js';

describe('readable log lines', () => {
  const time = Date.UTC(2026, 10, 24, 9, 5, 7);
  it('drops the routine fields and names the level only when it is not info', () => {
    const info = prettyLine(JSON.stringify({ level: 30, time, pid: 1, hostname: 'h', reqId: 'r', msg: 'ready' }));
    expect(info).toMatch(/^\d\d:\d\d:\d\d ready$/);
    const warn = prettyLine(JSON.stringify({ level: 40, time, msg: 'demo scans failed', case: 'C-1' }));
    expect(warn).toMatch(/^\d\d:\d\d:\d\d WARN demo scans failed case=C-1$/);
  });
  it('keeps an error’s stack, and passes through what is not JSON', () => {
    const err = prettyLine(
      JSON.stringify({ level: 50, time, msg: 'unhandled error', err: { stack: 'Error: x\n  at y' } }),
    );
    expect(err).toContain('ERROR unhandled error\nError: x\n  at y');
    expect(prettyLine('plain text')).toBe('plain text');
  });
});

describe('addresses in the logs', () => {
  it('keep the route and short codes, never a sign, an upload id, a key or a query value', () => {
    const sign = 'Zx9_kq3LmP0aB7cD8eF1gH2iJ4kL5mN6oP7qR8sT9uV';
    expect(redactUrl(`/activate-app/${sign}`)).toBe('/activate-app/…');
    expect(redactUrl(`/login-jump-page/${sign}?to=%2Fcase-management`)).toBe('/login-jump-page/…?to=…');
    expect(redactUrl('/api/v2/files/tus/3f2a9c1e-8d4b-4e7a-9b1c-2d3e4f5a6b7c')).toBe('/api/v2/files/tus/…');
    expect(redactUrl('/api/v2/order/attachment/oa1b2c3d4?exp=1764410400&sig=abcdef0123456789abcdef')).toBe(
      '/api/v2/order/attachment/oa1b2c3d4?exp=…&sig=…',
    );
    expect(redactUrl('/oidc/auth?client_id=app1&state=s3cr3t&code_challenge=xyz')).toBe(
      '/oidc/auth?client_id=…&state=…&code_challenge=…',
    );
    expect(redactUrl('/case-management/detail/c79d15a53')).toBe('/case-management/detail/c79d15a53');
    expect(redactUrl('/api/v2/case/list')).toBe('/api/v2/case/list');
    expect(redactUrl('/x?flag&a=')).toBe('/x?flag&a=…');
  });
});
