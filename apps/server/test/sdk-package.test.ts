import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, startTestServer, type TestServer } from './harness.ts';
import { readerEnvironment, readmeCommand, readmeTypeScriptExample, runAsWritten } from './readme.ts';

/**
 * The SDK as a TypeScript user gets it: packed from the workspace with the README's command (on a
 * PATH without pnpm), installed with npm into a project outside the repository with only TypeScript
 * beside it, compiled under `strict` with `module: nodenext`, and run against a live server; and
 * installed with the README's command into a project made by a bare `npm init -y` (CommonJS), where
 * the README's example runs as `example.mjs` and `require` works too.
 */

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const clientDir = path.join(repoRoot, 'packages/client');
const consumerSources = path.join(clientDir, 'test/consumer');

let project: string;
let tarballPath: string;
let server: TestServer;

async function typescriptVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(clientDir, 'node_modules/typescript/package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'shortlinks-sdk-user-'));
  // The README's `npm run client:pack -- /tmp`, into this project: pnpm pack runs the package's
  // prepack (the build) and rewrites its manifest for publishing. The declaration bundle took 140 s
  // on a machine running other suites at once: hence the room.
  const packed = await runAsWritten(readmeCommand('npm run client:pack').replace('/tmp', project), { timeoutMs: 300_000 });
  if (packed.code !== 0) throw new Error(`client:pack failed:\n${packed.stdout}\n${packed.stderr}`);
  const tarball = (await readdir(project)).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('pnpm pack wrote no tarball');
  tarballPath = path.join(project, tarball);
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'sdk-user', private: true, type: 'module' }));
  // A user's strict ESM project; bad.ts is compiled on its own with the same options.
  const compilerOptions = { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [] };
  await writeFile(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...compilerOptions, outDir: 'out' }, files: ['good.ts'] }),
  );
  await writeFile(
    path.join(project, 'tsconfig.bad.json'),
    JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: true }, files: ['bad.ts'] }),
  );
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      `./${tarball}`,
      `typescript@${await typescriptVersion()}`,
    ],
    { cwd: project, timeout: 180_000 },
  );
  await copyFile(path.join(consumerSources, 'good.ts'), path.join(project, 'good.ts'));
  await copyFile(path.join(consumerSources, 'bad.ts'), path.join(project, 'bad.ts'));
  server = await startTestServer();
}, 400_000);

afterAll(async () => {
  await server?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

/** Compiles the user's project with its own TypeScript; resolves to tsc's output, and whether it failed. */
async function tsc(config: string): Promise<{ failed: boolean; output: string }> {
  const compiler = path.join(project, 'node_modules/typescript/bin/tsc');
  return run(process.execPath, [compiler, '-p', config], { cwd: project, timeout: 120_000 }).then(
    ({ stdout }) => ({ failed: false, output: stdout }),
    (error: { stdout: string }) => ({ failed: true, output: error.stdout }),
  );
}

describe('@shortlinks/client installed from its packed tarball', () => {
  test('the tarball carries compiled JavaScript and bundled declarations, and depends on published packages only', async () => {
    const installed = path.join(project, 'node_modules/@shortlinks/client');
    const manifest = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    const dependencies = Object.keys((manifest.dependencies ?? {}) as Record<string, string>);
    expect(dependencies.filter((name) => name.startsWith('@shortlinks/'))).toEqual([]);
    expect(manifest.exports).toMatchObject({
      '.': {
        import: { types: './dist/index.d.ts', default: './dist/index.js' },
        require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
      },
    });
    const declarations = await readFile(path.join(installed, 'dist/index.d.ts'), 'utf8');
    expect(declarations).not.toMatch(/from ['"]@shortlinks\//);
    const javascript = await readFile(path.join(installed, 'dist/index.js'), 'utf8');
    expect(javascript).not.toMatch(/from ['"]@shortlinks\//);
  });

  test('a correct program compiles under strict with module nodenext and runs against a live server', async () => {
    const compiled = await tsc('tsconfig.json');
    expect(compiled, compiled.output).toEqual({ failed: false, output: '' });
    const { key } = await createAccount(server, { plan: 'team' });
    const { stdout } = await run(process.execPath, [path.join(project, 'out/good.js')], {
      cwd: project,
      env: { ...process.env, SHORTLINKS_URL: server.origin, SHORTLINKS_KEY: key },
      timeout: 60_000,
    });
    const result = JSON.parse(stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      destination: 'https://example.com/sdk?utm_source=sdk',
      created: false,
      title: 'Packed SDK, renamed',
      total: 1,
      days: expect.any(Number),
      refused: 'SLUG_TAKEN',
      field: 'slug',
      bulk: { succeeded: 1, refused: ['1:422:SLUG_INVALID'], deleted: 1 },
    });
    expect(result.listed).toHaveLength(1);
    // The program deleted its link at the end.
    const after = await fetch(`${server.api}/links`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await after.json()) as { total: number }).total).toBe(0);
  });

  test('a misspelt field, a value outside an enum or a wrong type is a compile error, on each such line', async () => {
    const compiled = await tsc('tsconfig.bad.json');
    expect(compiled.failed).toBe(true);
    const source = (await readFile(path.join(project, 'bad.ts'), 'utf8')).split('\n');
    const expectedLines = source.flatMap((line, index) => (line.includes('// error:') ? [index + 1] : []));
    expect(expectedLines).toHaveLength(6);
    const erroredLines = new Set([...compiled.output.matchAll(/^bad\.ts\((\d+),\d+\): error TS\d+/gm)].map((match) => Number(match[1])));
    expect(
      [...erroredLines].sort((a, b) => a - b),
      compiled.output,
    ).toEqual(expectedLines);
  });
});

describe("the README's SDK example, in a project made by npm init -y", () => {
  let plain: string;
  beforeAll(async () => {
    plain = await mkdtemp(path.join(tmpdir(), 'shortlinks-sdk-npm-init-'));
    const env = readerEnvironment();
    const init = await runAsWritten('npm init -y', { cwd: plain, env });
    expect(init.code, init.stderr).toBe(0);
    const installCommand = readmeCommand('npm install').replace(/\/tmp\/shortlinks-client-\S+\.tgz/, tarballPath);
    const installed = await runAsWritten(`${installCommand} --no-audit --no-fund --prefer-offline`, {
      cwd: plain,
      env,
      timeoutMs: 180_000,
    });
    expect(installed.code, installed.stderr).toBe(0);
  }, 240_000);
  afterAll(async () => {
    if (plain) await rm(plain, { recursive: true, force: true });
  });

  test('saved as example.mjs, the example runs as the README says, against a live server', async () => {
    const { key } = await createAccount(server, { plan: 'team' });
    const example = readmeTypeScriptExample()
      .replace("'http://localhost:3000'", JSON.stringify(server.origin))
      .replace("'slk_…'", JSON.stringify(key));
    await writeFile(path.join(plain, 'example.mjs'), example);
    const { stdout } = await run(process.execPath, ['example.mjs'], { cwd: plain, timeout: 60_000 });
    expect(stdout.trim()).toBe('SLUG_TAKEN slug 409');
  });

  test('require works from CommonJS, the default of npm init -y', async () => {
    const manifest = JSON.parse(await readFile(path.join(plain, 'package.json'), 'utf8')) as { type?: string };
    expect(manifest.type ?? 'commonjs').toBe('commonjs');
    await writeFile(
      path.join(plain, 'index.js'),
      "const { createClient, ShortlinksError } = require('@shortlinks/client');\n" +
        "console.log(typeof createClient, typeof ShortlinksError, typeof createClient({ baseUrl: 'http://x', apiKey: 'slk_x' }).links.create);\n",
    );
    const { stdout } = await run(process.execPath, ['index.js'], { cwd: plain, timeout: 30_000 });
    expect(stdout.trim()).toBe('function function function');
  });
});
