import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

// Dependencies stay in node_modules (PGlite loads its WebAssembly next to itself); the workspace
// contracts package is TypeScript source, so it is bundled in.
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@portal/'));

rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: {
    main: 'src/main.ts',
    'admin-create': 'src/admin-create.ts',
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
});
