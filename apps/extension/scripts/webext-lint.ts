import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildTarget, buildDir, buildExtension } from './build.ts';

/** One message of Mozilla's add-on linter (`web-ext lint --output=json`). */
export interface LintFinding {
  type: 'error' | 'warning' | 'notice';
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

/**
 * What the linter reports that is not ours to fix, and why. Anything else it reports, of any
 * severity, fails `lint:webext` and the end-to-end run (docs/extension.md, "Firefox").
 */
const INHERENT: { reason: string; targets: BuildTarget[]; matches(finding: LintFinding, source: string): boolean }[] = [
  {
    reason: 'React DOM sets innerHTML for dangerouslySetInnerHTML (which our code does not use) and for SVG',
    targets: ['chrome-mv3', 'firefox-mv3'],
    matches: (finding, source) =>
      finding.code === 'UNSAFE_VAR_ASSIGNMENT' &&
      finding.message === 'Unsafe assignment to innerHTML' &&
      isReactDomSetInnerHtml(source, finding),
  },
  {
    reason: 'the linter fails to parse a compiled async generator (the tRPC client’s) and says so as a warning',
    targets: ['chrome-mv3', 'firefox-mv3'],
    matches: (finding) =>
      finding.code === 'UNSAFE_VAR_ASSIGNMENT' && finding.message.startsWith('Error in no-unsanitized: Unexpected callable.'),
  },
  {
    reason: 'the Chromium build is not for Firefox: no gecko id, no data_collection_permissions, a service worker',
    targets: ['chrome-mv3'],
    matches: (finding) =>
      ['ADDON_ID_REQUIRED', 'MISSING_DATA_COLLECTION_PERMISSIONS', 'BACKGROUND_SERVICE_WORKER_NOFALLBACK'].includes(finding.code),
  },
  {
    reason: 'Chromium copies through an offscreen document, which Firefox does not have',
    targets: ['chrome-mv3'],
    matches: (finding) =>
      (finding.code === 'MANIFEST_PERMISSIONS' && finding.message.includes('"offscreen"')) ||
      (finding.code === 'UNSUPPORTED_API' && finding.message.startsWith('offscreen.')),
  },
];

/** Runs `web-ext lint` on a target's build; every error, warning and notice it reports. */
export async function lintBuild(target: BuildTarget): Promise<LintFinding[]> {
  const webExt = path.resolve(import.meta.dirname, '../node_modules/.bin/web-ext');
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      webExt,
      ['lint', `--source-dir=${buildDir(target)}`, '--output=json', '--no-config-discovery'],
      // Not the update check: the linter works offline.
      { env: { ...process.env, NO_UPDATE_NOTIFIER: '1' }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      // It exits with 1 when it finds an error; the JSON report is on stdout either way.
      (error, out, err) => (out.trim().startsWith('{') ? resolve(out) : reject(new Error(`web-ext lint gave no report: ${err || error}`))),
    ),
  );
  const report = JSON.parse(stdout) as Record<'errors' | 'warnings' | 'notices', Omit<LintFinding, 'type'>[]>;
  return [
    ...report.errors.map((finding) => ({ ...finding, type: 'error' as const })),
    ...report.warnings.map((finding) => ({ ...finding, type: 'warning' as const })),
    ...report.notices.map((finding) => ({ ...finding, type: 'notice' as const })),
  ];
}

/** The findings that no entry of INHERENT accounts for. */
export function unexpectedFindings(target: BuildTarget, findings: LintFinding[]): LintFinding[] {
  const sources = new Map<string, string>();
  const sourceOf = (file: string | undefined) => {
    if (!file?.endsWith('.js')) return '';
    if (!sources.has(file)) sources.set(file, readFileSync(path.join(buildDir(target), file), 'utf8'));
    return sources.get(file) ?? '';
  };
  return findings.filter(
    (finding) => !INHERENT.some((known) => known.targets.includes(target) && known.matches(finding, sourceOf(finding.file))),
  );
}

/**
 * React DOM's `setInnerHTML`, minified, is the only place our bundles assign innerHTML: it checks
 * for the SVG namespace right before the assignment. One of ours would not sit next to that check.
 */
function isReactDomSetInnerHtml(source: string, finding: LintFinding): boolean {
  if (finding.line === undefined || finding.column === undefined) return false;
  const line = source.split('\n')[finding.line - 1] ?? '';
  const around = line.slice(Math.max(0, finding.column - 200), finding.column + 100);
  return around.includes('"http://www.w3.org/2000/svg"') && around.includes('.namespaceURI');
}

export const describeFinding = (finding: LintFinding) =>
  `${finding.type} ${finding.code}: ${finding.message}${finding.file ? ` (${finding.file}${finding.line ? `:${finding.line}:${finding.column}` : ''})` : ''}`;

// `pnpm lint:webext`: builds both targets, lints them, and fails on anything unexpected.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const targets = ['firefox-mv3', 'chrome-mv3'] as const;
  for (const target of targets) buildExtension(target, { quiet: true });
  const reports = await Promise.all(targets.map(async (target) => ({ target, findings: await lintBuild(target) })));
  let failed = false;
  for (const { target, findings } of reports) {
    const unexpected = unexpectedFindings(target, findings);
    console.log(`${target}: ${findings.length} findings, ${findings.length - unexpected.length} of them inherent (scripts/webext-lint.ts)`);
    for (const finding of unexpected) console.log(`  ${describeFinding(finding)}`);
    failed ||= unexpected.length > 0;
  }
  process.exit(failed ? 1 : 0);
}
