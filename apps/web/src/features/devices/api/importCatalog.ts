import type { z } from 'zod';
import type { CatalogImportResult as CatalogImportResultSchema } from '@portal/contracts';
import { postForm } from '../../../lib/http';

export type CatalogImportResult = z.infer<typeof CatalogImportResultSchema>;

/**
 * An OEM imports its product catalogue: multipart field "file" (xlsx or csv). All rows or none:
 * when `errors` is non-empty nothing was imported.
 */
export function importCatalog(file: File): Promise<CatalogImportResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  return postForm('equipment/import_product_catalog', form);
}
