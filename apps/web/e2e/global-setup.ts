import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's Chromium, installed here when missing so a fresh CI machine needs nothing by hand (as
 * the extension's suite does: apps/extension/e2e/global-setup.ts). The dashboard itself is built
 * by the server's global setup, which runs first.
 */
export default function setup() {
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
