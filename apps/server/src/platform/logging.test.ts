import { describe, expect, it } from 'vitest';
import { prettyLine } from './logging.js';

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
