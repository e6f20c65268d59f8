import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildExtension } from '../scripts/build.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const FIREFOX = '/usr/bin/firefox-esr';

/**
 * Before the scenarios: Debian's Chromium and Firefox ESR (installed here when missing, so a fresh
 * CI machine needs nothing by hand) and one production build of the extension for each, shared by
 * every scenario.
 */
export default function setup() {
  installWhenMissing({ [CHROMIUM]: 'chromium', [FIREFOX]: 'firefox-esr' });
  buildExtension('chrome-mv3', { quiet: true });
  buildExtension('firefox-mv3', { quiet: true });
}

/** Installs the Debian package of each missing executable. */
function installWhenMissing(packages: Record<string, string>) {
  const missing = Object.entries(packages).filter(([executable]) => !existsSync(executable));
  if (missing.length === 0) return;
  const names = missing.map(([, name]) => name);
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${missing.map(([executable]) => executable).join(' and ')} missing: install with \`sudo apt-get install -y ${names.join(' ')}\` (Debian) and run again.`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  console.log(`e2e: installing Debian’s ${names.join(' and ')} (apt-get)…`);
  execFileSync('apt-get', ['update', '-qq'], { env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
  execFileSync('apt-get', ['install', '-y', '-qq', ...names], { env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 900_000 });
  for (const [executable, name] of missing) {
    if (!existsSync(executable)) throw new Error(`apt-get installed ${name} but ${executable} is still missing`);
  }
}
