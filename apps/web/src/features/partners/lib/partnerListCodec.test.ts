import { describe, expect, it } from 'vitest';
import { partnerListCodec as codec } from './partnerListCodec';

describe('the partner list in the address', () => {
  it('leaves an untouched list (My partners, page 1) out of the address', () => {
    const initial = codec.read(new URLSearchParams());
    expect(initial).toEqual({ tab: 'mine', pageNum: 1, pageSize: 20 });
    expect(codec.write(initial).toString()).toBe('');
    // An older link naming the default tab still reads.
    expect(codec.read(new URLSearchParams('tab=mine'))).toEqual(initial);
  });

  it('round-trips the tab, the page and the keyword', () => {
    const state = codec.read(new URLSearchParams('tab=history&keyword=Lab&pageNum=2'));
    expect(state).toEqual({ tab: 'history', pageNum: 2, pageSize: 20, keyword: 'Lab' });
    expect(Object.fromEntries(codec.write(state))).toEqual({ tab: 'history', keyword: 'Lab', pageNum: '2' });
  });

  it('reads an unknown tab as My partners', () => {
    expect(codec.read(new URLSearchParams('tab=all&pageNum=x'))).toEqual({ tab: 'mine', pageNum: 1, pageSize: 20 });
  });
});
