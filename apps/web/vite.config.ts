import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    rollupOptions: {
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
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true, ws: true } },
  },
});
