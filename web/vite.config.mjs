// @ts-check
import { URL, fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The dashboard's build: web/dist, served by the API server at /, and GraphiQL's page
 * (web/graphiql/index.html, served at /graphiql) with its Monaco workers. The pages run under a
 * policy of `script-src 'self'` with nothing inline, so nothing is inlined here either: no data:
 * URLs for assets, workers as files of their own, no modulepreload polyfill (every browser the
 * code targets has it).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  // Monaco's language services: each worker a module file of its own under assets/.
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    // Two pages, two entries: the dashboard (its pages and Apollo Client, 77 kB gzipped, plus React
    // and graphql-js in a chunk both share, 105 kB) and GraphiQL (260 kB, and its editor Monaco in
    // one chunk of 2.8 MB, 710 kB gzipped, which only /graphiql loads). The default warning at
    // 500 kB unzipped would only ever name Monaco.
    chunkSizeWarningLimit: 3000,
    rolldownOptions: {
      input: {
        dashboard: fileURLToPath(new URL('index.html', import.meta.url)),
        graphiql: fileURLToPath(new URL('graphiql/index.html', import.meta.url)),
      },
      onwarn(warning, warn) {
        // React Router marks its modules "use client" for server-component bundlers; a browser-only
        // bundle has nothing to preserve.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
