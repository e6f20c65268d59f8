import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { type BuildTarget, buildDir } from '../scripts/build.ts';
import { describeFinding, type LintFinding, lintBuild, unexpectedFindings } from '../scripts/webext-lint.ts';

/** The two production builds the global setup made, checked as files (no browser). */
const TARGETS: BuildTarget[] = ['firefox-mv3', 'chrome-mv3'];

const filesOf = (target: BuildTarget) =>
  (readdirSync(buildDir(target), { recursive: true }) as string[]).map((file) => file.split(path.sep).join('/'));
const scriptsOf = (target: BuildTarget) =>
  filesOf(target)
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, source: readFileSync(path.join(buildDir(target), file), 'utf8') }));
const manifestOf = (target: BuildTarget) => JSON.parse(readFileSync(path.join(buildDir(target), 'manifest.json'), 'utf8'));

// Both lints at once: each keeps one core busy for several seconds.
const lints = new Map<BuildTarget, Promise<LintFinding[]>>();
beforeAll(() => {
  for (const target of TARGETS) lints.set(target, lintBuild(target));
});

describe.each(TARGETS)('the %s build', (target) => {
  test('Mozilla’s linter (web-ext lint) reports nothing but the findings scripts/webext-lint.ts explains', async () => {
    const findings = await lints.get(target);
    expect(unexpectedFindings(target, findings ?? []).map(describeFinding)).toEqual([]);
  });

  test('no script bundles zod, which Parcel breaks (every page would fail with “z.string is not a function”)', () => {
    // Parcel names each module's dependencies in the bundle: `{zod:"<id>", ...}`.
    const withZod = scriptsOf(target).filter(({ source }) => /[{,]"?zod(\/[^"]*)?"?:/.test(source));
    expect(withZod.map(({ file }) => file)).toEqual([]);
  });
});

test('the Firefox build has a fixed add-on id and carries nothing Chromium-only', () => {
  const manifest = manifestOf('firefox-mv3');
  expect(manifest.browser_specific_settings.gecko).toMatchObject({ id: 'shortlinks@shortlinks.invalid', strict_min_version: '140.0' });
  expect(manifest.background).toEqual({ scripts: ['static/background/index.js'] });
  expect(manifest.permissions).not.toContain('offscreen');
  expect(filesOf('firefox-mv3').filter((file) => file.includes('offscreen'))).toEqual([]);
  // React's own `Symbol.for("react.offscreen")` is not the API.
  const offscreenApi = /chrome\.offscreen|offscreen\.createDocument|offscreen\.chrome\.html/;
  expect(
    scriptsOf('firefox-mv3')
      .filter(({ source }) => offscreenApi.test(source))
      .map(({ file }) => file),
  ).toEqual([]);
});

test('the Chromium build keeps its offscreen document and no Firefox settings', () => {
  const manifest = manifestOf('chrome-mv3');
  expect(manifest.permissions).toContain('offscreen');
  expect(manifest.background).toEqual({ service_worker: 'static/background/index.js' });
  expect(manifest.browser_specific_settings).toBeUndefined();
  expect(filesOf('chrome-mv3')).toContain('tabs/offscreen.chrome.html');
});
