import { describe, expect, it } from 'vitest';
import { organizationListCodec as codec } from './organizationListCodec';

describe('the organization list in the address', () => {
  it('leaves an untouched list out of the address', () => {
    const initial = codec.read(new URLSearchParams());
    expect(initial).toEqual({ pageNum: 1, pageSize: 20 });
    expect(codec.write(initial).toString()).toBe('');
  });

  it('round-trips its filters under its own prefix', () => {
    const text = 'org.keyword=Smile&org.type=2&org.status=3&org.region=eu&org.pageNum=2';
    const state = codec.read(new URLSearchParams(text));
    expect(state).toEqual({ pageNum: 2, pageSize: 20, keyword: 'Smile', type: 2, status: 3, region: 'eu' });
    expect(Object.fromEntries(codec.write(state))).toEqual(Object.fromEntries(new URLSearchParams(text)));
  });

  it('leaves the page’s tab and other lists’ parameters alone, and refuses foreign values', () => {
    expect(codec.read(new URLSearchParams('tab=review&pageNum=3&keyword=x'))).toEqual({ pageNum: 1, pageSize: 20 });
    expect(codec.owns?.('tab')).toBe(false);
    expect(codec.owns?.('pageNum')).toBe(false);
    expect(codec.owns?.('org.pageNum')).toBe(true);
    expect(codec.read(new URLSearchParams('org.status=9&org.region=mars&org.type=x'))).toEqual({
      pageNum: 1,
      pageSize: 20,
    });
  });
});
