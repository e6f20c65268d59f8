import path from 'node:path';

/**
 * Where the web dashboard (apps/web) lives in the repository, and where its build goes. The
 * server serves that folder at /app (plugins/dashboard.ts) and builds it on start when it is
 * missing or stale (dashboard/build-on-start.ts).
 */
export const WEB_APP_DIR = path.resolve(import.meta.dirname, '../../../web');
export const DASHBOARD_DIR = path.join(WEB_APP_DIR, 'dist');
/** Written into the build: the hash of the inputs it was built from. */
export const STAMP_FILE = '.build-stamp';
