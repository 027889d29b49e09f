import { describe, expect, it } from 'vitest';
import { updateLogAdminCodec as codec } from './updateLogAdminCodec';

describe('the update log screen in the address', () => {
  it('leaves the entries tab on its first page out of the address', () => {
    const initial = codec.read(new URLSearchParams());
    expect(initial).toEqual({ tab: 'entries', pageNum: 1, weeks: 8 });
    expect(codec.write(initial).toString()).toBe('');
  });

  it('round-trips the tab, the page and the weeks', () => {
    const state = codec.read(new URLSearchParams('tab=usage&pageNum=3&weeks=26'));
    expect(state).toEqual({ tab: 'usage', pageNum: 3, weeks: 26 });
    expect(codec.write(state).toString()).toBe('tab=usage&pageNum=3&weeks=26');
  });

  it('reads an unknown tab or a period the schema refuses as the default', () => {
    expect(codec.read(new URLSearchParams('tab=drafts&weeks=99&pageNum=0'))).toEqual({
      tab: 'entries',
      pageNum: 1,
      weeks: 8,
    });
  });
});
