import { describe, expect, it } from 'vitest';
import { addressHash, coarseUserAgent } from './visitor.js';

describe('coarse user agent', () => {
  it('keeps the browser and system families only', () => {
    expect(
      coarseUserAgent(
        'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome · Android');
    expect(
      coarseUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari · iOS');
    expect(
      coarseUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36 Edg/124.0',
      ),
    ).toBe('Edge · Windows');
    expect(coarseUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0')).toBe(
      'Firefox · macOS',
    );
    expect(coarseUserAgent(undefined)).toBe('Other · Other');
    expect(coarseUserAgent('curl/8.5.0')).toBe('Other · Other');
  });

  it('hashes an address per share, truncated', () => {
    const one = addressHash('secret', 1, '203.0.113.9');
    expect(one).toMatch(/^[0-9a-f]{12}$/);
    expect(addressHash('secret', 1, '203.0.113.9')).toBe(one);
    expect(addressHash('secret', 2, '203.0.113.9')).not.toBe(one);
    expect(addressHash('other', 1, '203.0.113.9')).not.toBe(one);
  });
});
