// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { httpModule, mockServer } from '../../../test/http-mock';
import { importCatalog } from './importCatalog';

vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
const server = mockServer((path) =>
  path === 'equipment/import_product_catalog'
    ? Promise.resolve({ imported: 2, errors: [] })
    : Promise.reject(new Error(path)),
);

describe('catalogue import', () => {
  it('posts the file as the multipart field "file"; lib/http shows a failure (not silent)', async () => {
    await expect(importCatalog(new File(['model'], 'c.csv'))).resolves.toEqual({ imported: 2, errors: [] });
    expect(server.calls.map((c) => c.path)).toEqual(['equipment/import_product_catalog']);
    const form = server.calls[0]!.body as FormData;
    expect([...form.keys()]).toEqual(['file']);
    expect((form.get('file') as File).name).toBe('c.csv');
    expect(httpModule.postForm).toHaveBeenCalledWith('equipment/import_product_catalog', form);
  });
});
