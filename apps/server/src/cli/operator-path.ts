import path from 'node:path';

/**
 * A path the operator typed, made absolute against the directory they ran the command in. npm and
 * pnpm run the CLI in apps/server; scripts/toolchain.sh keeps the directory the command was run from
 * as SHORTLINKS_CALLER_DIR (npm's INIT_CWD, which the pnpm it runs would overwrite). Every file a
 * command reads or writes goes through here.
 */
export function operatorPath(file: string): string {
  return path.resolve(process.env.SHORTLINKS_CALLER_DIR ?? process.env.INIT_CWD ?? process.cwd(), file);
}
