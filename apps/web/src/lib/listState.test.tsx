// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import { z } from 'zod';
import '../test/dom-shims';
import { $, click, type } from '../test/dom';
import { cleanup, renderScreen } from '../test/render';
import { requestCodec, useListState, useSearchText } from './listState';

afterEach(cleanup);

const codec = requestCodec(
  z.object({ pageNum: z.number().int().min(1).default(1), keyword: z.string().max(20).optional() }),
  { pageNum: 1 },
  'p.',
);

function List() {
  const [state, setState] = useListState(codec);
  const [text, setText] = useSearchText(state.keyword);
  return (
    <>
      <input data-testid="box" value={text} onChange={(e) => setText(e.target.value)} />
      <button
        data-testid="search"
        onClick={() => setState((s) => ({ ...s, pageNum: 1, keyword: text || undefined }))}
      />
      <button data-testid="next" onClick={() => setState((s) => ({ ...s, pageNum: s.pageNum + 1 }))} />
      <span data-testid="page">{state.pageNum}</span>
    </>
  );
}

describe('a list kept in the address', () => {
  it('keeps the page’s own parameters, replaces the entry, and writes a search only when it is made', async () => {
    const { router } = await renderScreen('/own?tab=scanners', '/own', <List />);
    await click($('next'));
    expect(router.state.location.search).toBe('?tab=scanners&p.pageNum=2');
    expect(router.state.historyAction).toBe('REPLACE');

    await type($('box'), 'SN');
    expect(router.state.location.search).toBe('?tab=scanners&p.pageNum=2');
    await click($('search'));
    expect(router.state.location.search).toBe('?tab=scanners&p.keyword=SN');
    expect($('page')?.textContent).toBe('1');
  });

  it('puts the address’s search back in the box when the address changes under it', async () => {
    const { router } = await renderScreen('/own?p.keyword=SN&p.pageNum=3', '/own', <List />);
    expect(($('box') as HTMLInputElement).value).toBe('SN');
    expect($('page')?.textContent).toBe('3');
    await act(() => router.navigate('/own'));
    expect(($('box') as HTMLInputElement).value).toBe('');
    expect($('page')?.textContent).toBe('1');
  });

  it('builds on the address as it is, not on the render a handler was made in', async () => {
    // A click that lands while the previous change is still rendering runs a handler of the older render.
    let first: ((next: (s: { pageNum: number }) => { pageNum: number }) => void) | undefined;
    function Held() {
      const [state, setState] = useListState(codec);
      first ??= setState;
      return <span data-testid="page">{state.pageNum}</span>;
    }
    const { router } = await renderScreen('/own?tab=scanners', '/own', <Held />);
    await act(() => router.navigate('/own?tab=scanners&p.keyword=SN', { replace: true }));
    await act(async () => first!((s) => ({ ...s, pageNum: 2 })));
    expect(router.state.location.search).toBe('?tab=scanners&p.pageNum=2&p.keyword=SN');
  });
});
