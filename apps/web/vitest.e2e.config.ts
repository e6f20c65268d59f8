import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The dashboard's real-browser suite (`pnpm --filter @shortlinks/web test:e2e`): the shared global
 * setup (one embedded PostgreSQL), the dashboard built when stale, Debian's Chromium, and the
 * scenarios one file at a time.
 */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: [fileURLToPath(import.meta.resolve('@shortlinks/testing/global-setup')), 'e2e/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 45_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
  },
});
