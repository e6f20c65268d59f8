import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const CHROMIUM = '/usr/bin/chromium';
const extensionDir = path.resolve(import.meta.dirname, '..');

/**
 * Before the scenarios: Debian's Chromium (installed here when missing, so a fresh CI machine
 * needs nothing by hand) and one production build of the extension, shared by every scenario.
 */
export default function setup() {
  ensureChromium();
  execFileSync(path.join(extensionDir, 'node_modules/.bin/plasmo'), ['build', '--src-path=src'], {
    cwd: extensionDir,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 180_000,
  });
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${CHROMIUM} is missing: install it with \`sudo apt-get install -y chromium\` (Debian) and run again.`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  console.log('e2e: installing Debian’s chromium (apt-get)…');
  execFileSync('apt-get', ['update', '-qq'], { env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 600_000,
  });
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
}
