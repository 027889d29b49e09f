import { describe, expect, it } from 'vitest';
import { deviceListCodec as codec } from './deviceListCodec';

describe('the scanner list in the address', () => {
  it('leaves an untouched list out of the address (its own page size of 10)', () => {
    const initial = codec.read(new URLSearchParams('tab=scanners'));
    expect(initial).toEqual({ pageNum: 1, pageSize: 10 });
    expect(codec.write(initial).toString()).toBe('');
  });

  it('round-trips its page and keyword under its own prefix, beside the own space’s tab', () => {
    const state = codec.read(new URLSearchParams('tab=scanners&device.keyword=SN-1&device.pageNum=2'));
    expect(state).toEqual({ pageNum: 2, pageSize: 10, keyword: 'SN-1' });
    expect(codec.write(state).toString()).toBe('device.pageNum=2&device.keyword=SN-1');
    expect(codec.owns?.('tab')).toBe(false);
  });

  it('refuses a bad page size', () => {
    expect(codec.read(new URLSearchParams('device.pageSize=0&device.pageNum=1.5'))).toEqual({
      pageNum: 1,
      pageSize: 10,
    });
  });
});
