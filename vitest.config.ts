import { defineConfig } from 'vitest/config';

/**
 * One run for the whole repository: a single embedded PostgreSQL (global setup) serves every
 * test file, each on its own database.
 */
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/src/**/*.test.tsx',
      'apps/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.tsx',
      'apps/*/test/**/*.test.ts',
    ],
    // The dashboard's build (apps/server/test/dashboard-setup.ts) for the servers the tests start.
    globalSetup: ['packages/testing/src/global-setup.ts', 'apps/server/test/dashboard-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
