import { describe, expect, it } from 'vitest';
import { userColumnSort, userListCodec } from './userListCodec';

describe('the user list in the address', () => {
  it('leaves an untouched list out of the address, and reads it back as the default', () => {
    const initial = userListCodec.read(new URLSearchParams());
    expect(initial).toEqual({ pageNum: 1, pageSize: 20, sortField: 'createdAt', sortOrder: 'desc' });
    expect(userListCodec.write(initial).toString()).toBe('');
  });

  it('round-trips page, sort, filters and the keyword', () => {
    const text = 'pageNum=2&pageSize=50&keyword=anna&status=1&roleCode=r-7&sortField=account&sortOrder=asc';
    const state = userListCodec.read(new URLSearchParams(text));
    expect(state).toEqual({
      pageNum: 2,
      pageSize: 50,
      keyword: 'anna',
      status: 1,
      roleCode: 'r-7',
      sortField: 'account',
      sortOrder: 'asc',
    });
    expect(Object.fromEntries(userListCodec.write(state))).toEqual(Object.fromEntries(new URLSearchParams(text)));
    expect(userColumnSort(state, 'account')).toBe('ascend');
    expect(userColumnSort(state, 'displayName')).toBeNull();
  });

  it('reads what the request schema refuses as the default, and ignores what the screen does not offer', () => {
    const state = userListCodec.read(
      new URLSearchParams('pageNum=0&pageSize=500&status=7&sortField=password&sortOrder=up&organizationCode=o1&x=1'),
    );
    expect(state).toEqual({ pageNum: 1, pageSize: 20, sortField: 'createdAt', sortOrder: 'desc' });
    expect(userListCodec.write(state).toString()).toBe('');
  });
});
