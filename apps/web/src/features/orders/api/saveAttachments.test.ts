// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { httpModule, mockServer } from '../../../test/http-mock';
import { saveAttachments } from './saveAttachments';

vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
const server = mockServer((path) =>
  path === 'order/save_attachments' ? Promise.resolve({ list: [] }) : Promise.reject(new Error(path)),
);

describe('order attachments', () => {
  it('name the order before the files, in one silent multipart post (the caller shows errors)', async () => {
    await expect(saveAttachments('O1', [new File(['a'], 'a.png'), new File(['b'], 'b.pdf')])).resolves.toEqual({
      list: [],
    });
    expect(server.calls.map((c) => c.path)).toEqual(['order/save_attachments']);
    const form = server.calls[0]!.body as FormData;
    expect([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : v.name])).toEqual([
      ['orderCode', 'O1'],
      ['file', 'a.png'],
      ['file', 'b.pdf'],
    ]);
    expect(httpModule.postForm).toHaveBeenCalledWith('order/save_attachments', form, { silent: true });
  });
});
