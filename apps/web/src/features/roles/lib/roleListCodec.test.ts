import { describe, expect, it } from 'vitest';
import { FIELD_MAX } from '@portal/contracts';
import { roleListCodec } from './roleListCodec';

describe('the role list in the address', () => {
  it('leaves an untouched list out of the address', () => {
    const initial = roleListCodec.read(new URLSearchParams());
    expect(initial).toEqual({ pageNum: 1, pageSize: 20 });
    expect(roleListCodec.write(initial).toString()).toBe('');
  });

  it('round-trips the page and the keyword', () => {
    const state = roleListCodec.read(new URLSearchParams('keyword=Lab&pageNum=3'));
    expect(state).toEqual({ pageNum: 3, pageSize: 20, keyword: 'Lab' });
    expect(roleListCodec.write(state).toString()).toBe('pageNum=3&keyword=Lab');
  });

  it('reads a refused page or an overlong keyword as the default', () => {
    const long = 'x'.repeat(FIELD_MAX.name + 1);
    expect(roleListCodec.read(new URLSearchParams(`pageNum=two&keyword=${long}`))).toEqual({
      pageNum: 1,
      pageSize: 20,
    });
  });
});
