import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config.js';
import { openDb } from './platform/db.js';
import { migrateAll } from './migrations.js';
import { buildApp } from './app.js';
import { ROOT_DIR } from './platform/paths.js';

/** The OpenAPI document as committed in docs/openapi.json: generated from the route schemas. */
export async function generateOpenApi(): Promise<string> {
  const config = loadConfig(
    { NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'silent', JWT_SECRET: 'x'.repeat(32) },
    { persistSecret: false },
  );
  const db = await openDb({});
  // The app starts its event stream, which reads its tables.
  await migrateAll(db);
  const app = await buildApp({ config, db, serveWeb: false, logger: false });
  await app.ready();
  const doc = formatOpenApi(app.swagger());
  await app.close();
  await db.close();
  return doc;
}

/** The committed file's formatting. */
export function formatOpenApi(doc: unknown): string {
  return JSON.stringify(doc, null, 2) + '\n';
}

export const OPENAPI_FILE = join(ROOT_DIR, 'docs', 'openapi.json');

if (process.argv[1] && /openapi\.(ts|js)$/.test(process.argv[1])) {
  void generateOpenApi().then((doc) => {
    writeFileSync(OPENAPI_FILE, doc);
    console.log(`Wrote ${OPENAPI_FILE}`);
  });
}
