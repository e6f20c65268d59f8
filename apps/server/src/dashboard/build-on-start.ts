import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { DASHBOARD_DIR, STAMP_FILE, WEB_APP_DIR } from './location.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(WEB_APP_DIR, '../..');

/**
 * What the dashboard's build is made from: its own sources and those of the packages it bundles,
 * and the lockfile (a dependency's version). Tests and the end-to-end suite are not in the bundle.
 */
const INPUTS = ['apps/web', 'packages/ui', 'packages/client', 'packages/contract'];
const SKIPPED = new Set(['node_modules', 'e2e', 'e2e-results']);
const isTest = (name: string) => /\.test\.tsx?$/.test(name);

export type DashboardBuild = { state: 'fresh' | 'built'; ms: number } | { state: 'failed'; ms: number; problem: string };

/**
 * One hash of every input file's path and content (a few hundred small files: milliseconds). The
 * build holds the hash it was made from; a different one means something changed since.
 */
export async function inputsHash(root = repoRoot): Promise<string> {
  const files: string[] = ['pnpm-lock.yaml'];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      // dist and its staging folders (dist.building-<pid>) are the output, not the input.
      if (SKIPPED.has(entry.name) || entry.name.startsWith('.') || /^dist($|\.)/.test(entry.name)) continue;
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile() && !isTest(entry.name)) files.push(child);
    }
  };
  for (const input of INPUTS) await walk(input);
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await readFile(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The hash the current build was made from, or undefined when there is no complete build. */
async function builtFrom(outDir: string): Promise<string | undefined> {
  try {
    return (await readFile(path.join(outDir, STAMP_FILE), 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/**
 * Builds the dashboard when its build is missing or was made from other inputs; otherwise returns
 * at once, without starting Vite. The build goes to a folder of its own and replaces the old one
 * only when complete, so an interrupted build never leaves half a dashboard to be served.
 */
export async function ensureDashboardBuilt({ outDir = DASHBOARD_DIR }: { outDir?: string } = {}): Promise<DashboardBuild> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const want = await inputsHash();
  if ((await builtFrom(outDir)) === want) return { state: 'fresh', ms: elapsed() };

  const staging = `${outDir}.building-${process.pid}`;
  const previous = `${outDir}.previous-${process.pid}`;
  try {
    // Vite as the web app installed it (its exports name no bin, its package.json is public).
    const vite = path.join(path.dirname(createRequire(path.join(WEB_APP_DIR, 'package.json')).resolve('vite/package.json')), 'bin/vite.js');
    await run(process.execPath, [vite, 'build', '--outDir', staging, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: WEB_APP_DIR,
      // A production build whatever the caller runs with: Vite honours NODE_ENV, and the tests (test)
      // or an operator's shell (development) would otherwise get React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
      timeout: 300_000,
    });
    await writeFile(path.join(staging, STAMP_FILE), `${want}\n`);
    await rename(outDir, previous).catch(() => undefined);
    try {
      await rename(staging, outDir);
    } catch (error) {
      // Another process (a second server started at once) put its build there first: the same
      // inputs make the same build, so that one serves.
      if ((await builtFrom(outDir)) !== want) throw error;
      await rm(staging, { recursive: true, force: true });
    }
    await rm(previous, { recursive: true, force: true });
    return { state: 'built', ms: elapsed() };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const problem = error instanceof Error ? (error as { stderr?: string }).stderr?.trim() || error.message : String(error);
    return { state: 'failed', ms: elapsed(), problem };
  }
}
