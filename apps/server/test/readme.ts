import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The README's commands as a reader runs them: every line of its `sh` blocks, run by `sh` in a shell
 * whose PATH is the machine's own (Node.js and npm, no pnpm), not the one this test run got from
 * scripts/toolchain.sh. The tests that run them (readme-commands.test.ts, sdk-package.test.ts) take
 * each command from here by its beginning, so the README cannot change without them.
 */

export const repoRoot = path.resolve(import.meta.dirname, '../../..');
const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** Every command of the README's `sh` blocks (a continued line joined), without its trailing comment. */
export const readmeCommands: readonly string[] = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((block) =>
  (block[1] ?? '')
    .replace(/\\\n\s*/g, ' ') // a command continued on the next line
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#')),
);

/** The README's one command that is `start` or begins with `start` and a space; none or several fail the test. */
export function readmeCommand(start: string): string {
  const found = readmeCommands.filter((command) => command === start || command.startsWith(`${start} `));
  if (found.length !== 1) throw new Error(`README.md has ${found.length} commands beginning "${start}"`);
  return found[0] as string;
}

/** The README's `ts` example (the SDK's), as written. */
export function readmeTypeScriptExample(): string {
  const example = /^```ts\n([\s\S]*?)^```/m.exec(readme)?.[1];
  if (!example) throw new Error('README.md has no ts example');
  return example;
}

/**
 * The environment of a person at a terminal: no pnpm, no `node_modules/.bin`, none of the
 * variables npm or pnpm set for the script running these tests (INIT_CWD would tell the CLI where
 * it was run from).
 */
export function readerEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|INIT_CWD$|SHORTLINKS_CALLER_DIR$|PNPM_|VITEST|TURBO_|NODE_OPTIONS$)/i.test(name)) continue;
    env[name] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !dir.includes('.toolchain') && !dir.includes('node_modules'))
    .join(path.delimiter);
  return { ...env, ...extra };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one command line with `sh -c`, as typed, to its end; fails after `timeoutMs`. */
export async function runAsWritten(
  command: string,
  { cwd = repoRoot, env = readerEnvironment(), timeoutMs = 120_000 }: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Finished> {
  const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const output = collect(child);
  const timer = setTimeout(() => stopGroup(child), timeoutMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, ...output() };
}

/** Starts a long-running command line (`npm start`) in a process group of its own, as a terminal does. */
export function startAsWritten(
  command: string,
  { cwd = repoRoot, env = readerEnvironment() }: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const output = collect(child);
  return { child, output: () => output().stdout + output().stderr };
}

/** Ctrl-C: SIGINT to the whole group (sh, npm, pnpm, node), then waits for the command to end. */
export async function interrupt(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  stopGroup(child, 'SIGINT');
  const killer = setTimeout(() => stopGroup(child, 'SIGKILL'), 30_000);
  await exited;
  clearTimeout(killer);
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

function collect(child: ChildProcess): () => { stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return () => ({ stdout, stderr });
}
