// @vitest-environment jsdom
import '../test/dom-shims';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { usePageInRange } from './listState';
import { cleanup, mount } from '../test/render';

afterEach(cleanup);

function Probe(props: { pageNum: number; total: number | undefined; moveTo: (n: number) => void }) {
  const list = props.total === undefined ? {} : { data: { total: props.total } };
  usePageInRange({ pageNum: props.pageNum, pageSize: 10 }, list, props.moveTo);
  return null;
}

describe('usePageInRange', () => {
  it('moves a page past the end to the last page, once the total is known', async () => {
    const moveTo = vi.fn();
    await mount(<Probe pageNum={4} total={undefined} moveTo={moveTo} />);
    expect(moveTo).not.toHaveBeenCalled();
    cleanup();
    await mount(<Probe pageNum={4} total={25} moveTo={moveTo} />);
    expect(moveTo).toHaveBeenCalledWith(3);
  });

  it('leaves a page in range alone, and an empty list on page 1', async () => {
    const moveTo = vi.fn();
    await mount(<Probe pageNum={3} total={25} moveTo={moveTo} />);
    await mount(<Probe pageNum={1} total={0} moveTo={moveTo} />);
    await act(async () => undefined);
    expect(moveTo).not.toHaveBeenCalled();
  });

  it("waits while the rows shown are the previous request's", async () => {
    const moveTo = vi.fn();
    function Previous() {
      usePageInRange({ pageNum: 4, pageSize: 10 }, { data: { total: 5 }, isPlaceholderData: true }, moveTo);
      return null;
    }
    await mount(<Previous />);
    expect(moveTo).not.toHaveBeenCalled();
  });

  it('moves an emptied last page back to page 1', async () => {
    const moveTo = vi.fn();
    await mount(<Probe pageNum={2} total={0} moveTo={moveTo} />);
    expect(moveTo).toHaveBeenCalledWith(1);
  });
});
