// Measures what the browser fetches to show /login: index.html's scripts and styles, the login
// screen chunk, their static imports, and the English locale files loaded at start-up. Gzip sizes.
// Usage: node apps/web/measure-bundle.mjs  (after `npm run build -w @portal/web`)
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const files = new Set();
const visit = (key) => {
  const entry = manifest[key];
  if (!entry || files.has(entry.file)) return;
  files.add(entry.file);
  for (const css of entry.css ?? []) files.add(css);
  for (const imp of entry.imports ?? []) visit(imp);
};
visit('index.html');
visit('src/features/auth/pages/LoginPage.tsx');
for (const key of Object.keys(manifest)) {
  if (/locales\/en\/[^/]+\.json$/.test(key)) visit(key);
}
let total = 0;
const rows = [...files].map((f) => {
  const size = gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
  total += size;
  return [f, size];
});
rows.sort((a, b) => b[1] - a[1]);
for (const [f, size] of rows) console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${f}`);
const html = gzipSync(readFileSync(join(dist, 'index.html'))).length;
console.log(`${(html / 1024).toFixed(1).padStart(7)} KB  index.html`);
total += html;
console.log(`${(total / 1024).toFixed(1).padStart(7)} KB  total (gzip) to show /login; budget 250 KB`);
process.exitCode = total <= 250 * 1024 ? 0 : 1;
