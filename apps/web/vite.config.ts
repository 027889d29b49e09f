import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// A relative path: Vite bundles it into the config, where the package name would reach Node as TypeScript.
import { SHARE_PAGES } from '../../packages/contracts/src/api/shares';

const SHARE_PAGE_PATHS = new Set(Object.values(SHARE_PAGES));

/** In development, the share pages get their own document, as the server gives them in production. */
function sharePagesInDev(): Plugin {
  return {
    name: 'share-pages',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const [path = '', query] = (req.url ?? '').split('?');
        if (SHARE_PAGE_PATHS.has(path.replace(/\/+$/, ''))) req.url = `/share.html${query ? `?${query}` : ''}`;
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), sharePagesInDev()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      // Two documents: the app, and the public share pages, whose visitors need none of the app's shell.
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        share: fileURLToPath(new URL('./share.html', import.meta.url)),
      },
      // Dependencies' comments that Rollup cannot place are its business, not the build's reader's.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
      // The contracts package re-exports zod schemas from its index; the web app only uses their types.
      // Treating its modules as side-effect free lets Rollup drop the schema modules (and zod) entirely.
      treeshake: {
        moduleSideEffects: (id) => !/[\\/]packages[\\/]contracts[\\/]/.test(id),
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true, ws: true },
      // The live socket checks that the page's origin is the address it was asked at: the host is kept.
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
});
