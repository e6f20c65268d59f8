import { ensureDashboardBuilt } from '../src/dashboard/build-on-start.ts';

/**
 * Global setup: the web dashboard built once for the run (when stale), so the servers the tests
 * start (main.ts included, several at once) find it ready instead of each building it.
 */
export default async function setup() {
  const build = await ensureDashboardBuilt();
  if (build.state === 'failed') throw new Error(`the web dashboard did not build: ${build.problem}`);
}
