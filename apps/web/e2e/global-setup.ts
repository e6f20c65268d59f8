import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureDashboardBuilt } from '@shortlinks/server/dashboard-build';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Before the scenarios: the dashboard built when stale (as `npm start` does), and Debian's
 * Chromium, installed here when missing so a fresh CI machine needs nothing by hand (as the
 * extension's suite does: apps/extension/e2e/global-setup.ts).
 */
export default async function setup() {
  const build = await ensureDashboardBuilt();
  if (build.state === 'failed') throw new Error(`the web dashboard did not build: ${build.problem}`);
  ensureChromium();
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${CHROMIUM} is missing: install it with \`sudo apt-get install -y chromium\` (Debian) and run again.`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  console.log('e2e: installing Debian’s chromium (apt-get)…');
  execFileSync('apt-get', ['update', '-qq'], { env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 });
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
}
