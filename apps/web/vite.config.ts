import { defineConfig } from 'vite';

/**
 * The dashboard as static files for the server to serve at /app (apps/server/src/plugins/dashboard.ts).
 * Every script and style is a file of its own under assets/, named by its content hash: the page's
 * Content-Security-Policy allows no inline code, and hashed names may be cached for a year.
 */
export default defineConfig({
  base: '/app/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // Browsers the dashboard supports all preload modules themselves; the polyfill would be dead code.
    modulePreload: { polyfill: false },
    // Nothing inlined as data: URLs beyond what the CSP's img-src allows; fonts and scripts stay files.
    assetsInlineLimit: 0,
  },
  server: {
    // `pnpm --filter @shortlinks/web dev`: the page from Vite, the API from a server started with `pnpm start`.
    proxy: { '/trpc': 'http://127.0.0.1:3000', '/api': 'http://127.0.0.1:3000' },
  },
});
