import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

// Dependencies stay in node_modules (PGlite loads its WebAssembly next to itself, others read files beside them);
// the workspace packages are TypeScript source, so they are bundled in. So is the HTTP stack every start loads,
// plain JavaScript that reads nothing beside itself: one file instead of a few hundred to find and read (about 50 ms
// of the start-up).
const BUNDLED = new Set([
  'fastify',
  '@fastify/formbody',
  '@fastify/multipart',
  '@fastify/rate-limit',
  '@fastify/swagger',
  'fastify-plugin',
  'fastify-type-provider-zod',
  'helmet',
  'jose',
  'zod',
  'pg',
]);
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@portal/') && !BUNDLED.has(d));

rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: {
    main: 'src/main.ts',
    'admin-create': 'src/admin-create.ts',
    backup: 'src/backup.ts',
    openapi: 'src/openapi.ts',
    scanner: 'src/scanner/cli.ts',
    'mesh-worker': 'src/modules/files/mesh-worker.ts',
    'pdf-worker': 'src/modules/reports/pdf-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
  // Bundled CommonJS still requires Node's own modules.
  banner: {
    js: "import { createRequire as portalRequire } from 'node:module'; const require = portalRequire(import.meta.url);",
  },
});
