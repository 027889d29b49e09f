import { describe, expect, it } from 'vitest';
import { listLoading } from './listLoading';

describe('listLoading', () => {
  it('veils the first load and a page or filter whose answer is not in yet', () => {
    expect(listLoading({ isFetching: true, data: undefined })).toBe(true);
    expect(listLoading({ isFetching: true, data: { list: [] }, isPlaceholderData: true })).toBe(true);
  });
  it('leaves a list that refreshes in the background, or is not fetching, unveiled', () => {
    expect(listLoading({ isFetching: true, data: { list: [] }, isPlaceholderData: false })).toBe(false);
    expect(listLoading({ isFetching: true, data: { list: [] } })).toBe(false);
    expect(listLoading({ isFetching: false, data: undefined })).toBe(false);
  });
});
