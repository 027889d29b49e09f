import { describe, expect, it } from 'vitest';
import { outboxCodec } from './outboxCodec';

describe('the outbox in the address', () => {
  it('leaves the first page out of the address, round-trips another and refuses a bad one', () => {
    expect(outboxCodec.write(outboxCodec.read(new URLSearchParams())).toString()).toBe('');
    const state = outboxCodec.read(new URLSearchParams('pageNum=4&pageSize=50'));
    expect(state).toEqual({ pageNum: 4, pageSize: 50 });
    expect(outboxCodec.write(state).toString()).toBe('pageNum=4&pageSize=50');
    expect(outboxCodec.read(new URLSearchParams('pageNum=-1&pageSize=1000'))).toEqual({ pageNum: 1, pageSize: 20 });
  });
});
