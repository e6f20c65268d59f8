import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The real-browser suite (`pnpm test:e2e`): builds the extension once, starts the embedded
 * PostgreSQL once (the server tests' own global setup), and runs the scenarios one file at a time
 * in a single Chromium per file.
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
