// @ts-check
import { URL, fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The dashboard's build: web/dist, served by the API server at /. Its pages run under a policy
 * of `script-src 'self'; style-src 'self'` with nothing inline, so nothing is inlined here either:
 * no data: URLs for assets, no modulepreload polyfill (every browser the code targets has it).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    // One chunk of about 150 kB gzipped (React, Apollo Client, React Router and the pages): the
    // default warning at 500 kB unzipped says nothing about that.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      onwarn(warning, warn) {
        // React Router marks its modules "use client" for server-component bundlers; a browser-only
        // bundle has nothing to preserve.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
