import { describe, expect, it } from 'vitest';
import { recycleBinCodec as codec } from './recycleBinCodec';

describe('the recycle bin in the address', () => {
  it('leaves the first page out, round-trips another and refuses a bad one', () => {
    expect(codec.write(codec.read(new URLSearchParams())).toString()).toBe('');
    const state = codec.read(new URLSearchParams('pageNum=2&pageSize=50'));
    expect(state).toEqual({ pageNum: 2, pageSize: 50 });
    expect(codec.write(state).toString()).toBe('pageNum=2&pageSize=50');
    expect(codec.read(new URLSearchParams('pageNum=abc&pageSize=-5'))).toEqual({ pageNum: 1, pageSize: 20 });
  });
});
