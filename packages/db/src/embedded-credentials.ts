import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface RoleCredentials {
  user: string;
  password: string;
}

/** The two roles of the embedded cluster. */
export interface ClusterCredentials {
  /** The superuser initdb creates: administration only (roles, databases), never the application. */
  superuser: RoleCredentials;
  /** What the application connects as: it owns the application database, and can do nothing else. */
  app: RoleCredentials;
}

export const CREDENTIALS_FILE = 'postgres-credentials.json';
const NEW_SUPERUSER = 'postgres';
export const APP_ROLE = 'shortlinks_app';

/**
 * The file keeps the superuser at its top level, where the previous version kept its only role
 * (a superuser named `shortlinks` that the application connected as), so a file written by either
 * version is read by both; the application role sits under `app`.
 */
interface CredentialsFile extends RoleCredentials {
  app?: RoleCredentials;
}

/**
 * Reads DATA_DIR/postgres-credentials.json, creating it (mode 0600) with new random passwords, or
 * adding the application role to a file written by the previous version.
 */
export async function loadOrCreateCredentials(dataDir: string): Promise<ClusterCredentials> {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  const stored = await readCredentialsFile(file);
  if (stored?.app) return { superuser: { user: stored.user, password: stored.password }, app: stored.app };
  const credentials: ClusterCredentials = {
    superuser: stored ? { user: stored.user, password: stored.password } : { user: NEW_SUPERUSER, password: newPassword() },
    app: { user: APP_ROLE, password: newPassword() },
  };
  const content: CredentialsFile = { ...credentials.superuser, app: credentials.app };
  // Written beside and renamed over, so a crash leaves the old file or the new one, never half of one.
  const partial = `${file}.${process.pid}.partial`;
  await rm(partial, { force: true });
  await writeFile(partial, `${JSON.stringify(content)}\n`, { mode: 0o600, flag: 'wx' });
  await rename(partial, file);
  return credentials;
}

async function readCredentialsFile(file: string): Promise<CredentialsFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isRole(parsed) || ('app' in parsed && !isRole(parsed.app))) {
    throw new Error(`${file} is not a credentials file written by Shortlinks: restore it, or set DATABASE_URL`);
  }
  return parsed as CredentialsFile;
}

function isRole(value: unknown): value is RoleCredentials {
  const role = value as Partial<RoleCredentials> | null;
  return typeof role === 'object' && role !== null && typeof role.user === 'string' && typeof role.password === 'string';
}

const newPassword = () => randomBytes(18).toString('base64url');
