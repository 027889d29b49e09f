import { describe, expect, it } from 'vitest';
import { formatSize } from '@portal/contracts';
import { sizeText } from './sizes';

describe('sizes on screens', () => {
  it('show one decimal at most, in the reader’s number format', () => {
    expect(sizeText(4_115_000)).toBe('3.9 MB');
    expect(sizeText(998_484)).toBe('975.1 KB');
    expect(sizeText(2 * 1024 * 1024)).toBe('2 MB');
    expect(sizeText(512)).toBe('512 B');
  });

  it('leave the spec’s three decimals to the formatter’s default', () => {
    expect(formatSize(4_115_000)).toBe('3.924 MB');
  });
});
