import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type BuildTarget = 'chrome-mv3' | 'firefox-mv3';

const extensionDir = path.resolve(import.meta.dirname, '..');

/** Where a target's production build lands. */
export const buildDir = (target: BuildTarget) => path.join(extensionDir, `build/${target}-prod`);

/**
 * A production build of the extension for one target: `node scripts/build.ts chrome-mv3` (the
 * `build` script) or `firefox-mv3` (`build:firefox`); the end-to-end setup builds both this way.
 */
export function buildExtension(target: BuildTarget, { quiet = false } = {}): void {
  // Plasmo writes an HTML mount for each page of `src/tabs/` into `.plasmo/tabs/` and builds every
  // mount it finds there, but never removes one: the Chromium-only `offscreen.chrome` page left by
  // a Chromium build would be built into the next Firefox build. The mounts are written again on
  // each build, so starting from none is safe.
  rmSync(path.join(extensionDir, '.plasmo/tabs'), { recursive: true, force: true });
  execFileSync(path.join(extensionDir, 'node_modules/.bin/plasmo'), ['build', '--src-path=src', `--target=${target}`], {
    cwd: extensionDir,
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    timeout: 180_000,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (target !== 'chrome-mv3' && target !== 'firefox-mv3') {
    console.error('usage: node scripts/build.ts chrome-mv3|firefox-mv3');
    process.exit(2);
  }
  buildExtension(target);
}
