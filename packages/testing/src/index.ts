export {
  type ApiResponse,
  callApi,
  countRows,
  createAccount,
  createLink,
  getLink,
  inDays,
  type TestAccount,
  tagNames,
} from './api-calls.ts';
export { filterAndSearchTwoPagesOfLinks, linkRows, slugsShown } from './link-list-scenarios.ts';
export { BROWSER_USER_AGENT, msUntil } from './polling.ts';
export { seedAcmeAccount, seedTwoPagesOfLinks } from './scenarios.ts';
export { createEmptyDatabase, createTestDatabase } from './test-database.ts';
export { GENEROUS_RATE_LIMITS, type HarnessBuildOptions, type HarnessOptions, type TestServer, testServers } from './test-server.ts';
