import path from 'node:path';
import { parseArgs } from 'node:util';
import { InvalidDenylistEntry, LocalDenylist, ReputationChain, remoteReputation } from '@shortlinks/api/destinations';
import { toAppError } from '@shortlinks/api/errors';
import { type AccountView, actByDefault, COMMAND_LINE_ACTING, createServices, type Services } from '@shortlinks/api/services';
import { isScope, PLANS, type Plan, SCOPES, type Scope } from '@shortlinks/contract';
import { openDatabase } from '../database.ts';
import { readConfig } from '../env.ts';
import { backupCommand } from './backup-command.ts';
import { exportCommand } from './export-command.ts';
import { importCommand } from './import-command.ts';
import { restoreCommand } from './restore-command.ts';
import { UsageError } from './usage-error.ts';
import { userCommand } from './user-command.ts';

const USAGE = `Usage: pnpm shortlinks <command>

  account create --name NAME --plan ${PLANS.join('|')} [--link-limit N] [--tag-limit N] [--rate-limit N|none] [--json]
  account update ACCOUNT_ID [--name NAME] [--plan ${PLANS.join('|')}] [--link-limit N|default] [--tag-limit N|default]
                 [--rate-limit N|default|none] [--json]
  account list [--json]
  key create --account ACCOUNT_ID [--scopes SCOPE,SCOPE…] [--name NAME] [--json]
  key list --account ACCOUNT_ID [--json]
  key revoke KEY_ID
  user create --email EMAIL --account ACCOUNT_ID [--role owner|admin|member|viewer] [--json]
  user list [--json]
  user reset-password EMAIL [--json]
  denylist add DOMAIN|URL_PREFIX [--json]
  denylist remove DOMAIN|URL_PREFIX [--json]
  denylist list [--json]
  export --account ACCOUNT_ID [--format csv|jsonl] [--raw-csv] [--output FILE]
  import --account ACCOUNT_ID FILE [--format FORMAT] [--on-conflict skip|update|fail] [--dry-run] [--json]
  backup [--output FILE|-]
  restore FILE

--rate-limit: API requests per minute for each of the account's keys; \`default\` follows the plan
(API_RATE_LIMIT_<PLAN>), \`none\` removes the limit. Running servers apply changes within a second.

export guards spreadsheet formulas in CSV: a cell starting with = + - @, a tab or a carriage return
gets a ' in front, so a spreadsheet shows it instead of running it; import removes it again.
--raw-csv writes values as they are, for programs (docs/import-export.md).

key create makes a key with every scope unless --scopes names some: ${SCOPES.join(', ')}
(X.write includes X.read; docs/accounts.md, "Keys and scopes"). key list shows each key's scopes.

user create adds a person to a workspace (member unless --role says otherwise) and prints a one-time
link where they set their password; reset-password prints a new one. No password is typed here.

backup writes every table in one consistent snapshot while servers keep running; restore loads a
backup into an EMPTY database, then applies newer migrations (docs/operations.md).

Uses DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (shared with a running server).`;

/** `--scopes links.read,tags.write`: each a known scope, at least one. */
function scopesOf(text: string): Scope[] {
  const named = text
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = named.find((scope) => !isScope(scope));
  if (unknown !== undefined) throw new UsageError(`--scopes: unknown scope ${unknown} (one of ${SCOPES.join(', ')})`);
  if (named.length === 0) throw new UsageError(`--scopes needs at least one of ${SCOPES.join(', ')}`);
  return SCOPES.filter((scope) => named.includes(scope));
}

/** The command line as parseArgs reads it; what it cannot read (an unknown flag, a missing value) is a usage error. */
function readArguments(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        plan: { type: 'string' },
        'link-limit': { type: 'string' },
        'tag-limit': { type: 'string' },
        'rate-limit': { type: 'string' },
        account: { type: 'string' },
        email: { type: 'string' },
        role: { type: 'string' },
        scopes: { type: 'string' },
        format: { type: 'string' },
        output: { type: 'string' },
        'raw-csv': { type: 'boolean', default: false },
        out: { type: 'string' },
        'on-conflict': { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
}

/** The operator CLI: accounts and API keys (the spec leaves issuing credentials to us: docs/accounts.md). */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = readArguments(argv);
  const [noun, verb, ...rest] = positionals;
  if (values.help || !noun) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }

  const repoRoot = path.resolve(import.meta.dirname, '../../../..');
  const { config, problems } = readConfig(process.env, repoRoot);
  if (!config) throw new UsageError(problems.join('\n'));
  // A backup changes nothing, and a restore applies the backup's own migrations.
  const transfer = noun === 'backup' || noun === 'restore';
  const database = await openDatabase(config, undefined, { migrations: !transfer });
  try {
    if (noun === 'backup') return await backupCommand(database.url, { output: values.output ?? values.out }, positionals.slice(1));
    if (noun === 'restore') return await restoreCommand(database.url, positionals.slice(1));
    // The server's URL checks, so that an import refuses what the API would.
    const remote = remoteReputation(config.reputation, (message) => console.error(message));
    const reputation = new ReputationChain([new LocalDenylist(config.denylist), ...(remote ? [remote] : [])]);
    const services = createServices({ orm: database.orm, shortDomain: config.shortDomain, reputation });
    // What the operator changes here is the command line's in the audit log (docs/accounts.md).
    actByDefault(COMMAND_LINE_ACTING);
    if (noun === 'export') return await exportCommand(services, values, positionals.slice(1));
    if (noun === 'import') return await importCommand(services, values, positionals.slice(1));
    if (noun === 'user') return await userCommand(services, verb, rest, values, `${config.publicUrl}/app`);
    return await run(services, `${noun} ${verb ?? ''}`.trim(), rest, values, config.apiRateLimits);
  } finally {
    await database.close();
  }
}

type Flags = {
  name?: string;
  plan?: string;
  'link-limit'?: string;
  'tag-limit'?: string;
  'rate-limit'?: string;
  account?: string;
  scopes?: string;
  json: boolean;
};

async function run(
  services: Services,
  command: string,
  rest: string[],
  flags: Flags,
  planRateLimits: Record<Plan, number>,
): Promise<number> {
  const print = (json: unknown, text: string) => console.log(flags.json ? JSON.stringify(json, null, 2) : text);
  const describe = (account: AccountView) => describeAccount(account, planRateLimits);
  switch (command) {
    case 'account create': {
      if (!flags.name) throw new UsageError('account create needs --name');
      if (!flags.plan || !PLANS.includes(flags.plan as Plan)) throw new UsageError(`account create needs --plan ${PLANS.join('|')}`);
      const account = await services.accounts.create({
        name: flags.name,
        plan: flags.plan as Plan,
        link_limit: wholeNumber(flags['link-limit'], '--link-limit'),
        tag_limit: wholeNumber(flags['tag-limit'], '--tag-limit'),
        api_rate_limit: limitSetting(flags['rate-limit'], '--rate-limit', ['none']) ?? undefined,
      });
      const { secret } = await services.apiKeys.create(account.id);
      print({ account, api_key: secret }, `${describe(account)}\n\nAPI key (shown only once): ${secret}`);
      return 0;
    }
    case 'account update': {
      const id = rest[0];
      if (!id) throw new UsageError('account update needs ACCOUNT_ID');
      if (flags.plan !== undefined && !PLANS.includes(flags.plan as Plan)) throw new UsageError(`--plan must be one of ${PLANS.join('|')}`);
      const changes = {
        name: flags.name,
        plan: flags.plan as Plan | undefined,
        link_limit: limitSetting(flags['link-limit'], '--link-limit', ['default']),
        tag_limit: limitSetting(flags['tag-limit'], '--tag-limit', ['default']),
        api_rate_limit: limitSetting(flags['rate-limit'], '--rate-limit', ['default', 'none']),
      };
      if (Object.values(changes).every((value) => value === undefined)) {
        throw new UsageError('account update needs at least one of --name, --plan, --link-limit, --tag-limit, --rate-limit');
      }
      const account = await services.accounts.update(id, changes);
      if (!account) throw new UsageError(`No account ${id}.`);
      print({ account }, describe(account));
      return 0;
    }
    case 'account list': {
      const accounts = await services.accounts.list();
      print({ accounts }, accounts.length ? accounts.map(describe).join('\n') : 'No accounts.');
      return 0;
    }
    case 'key create': {
      const account = await requireAccount(services, flags.account);
      const scopes = flags.scopes === undefined ? [...SCOPES] : scopesOf(flags.scopes);
      const { key, secret } = await services.apiKeys.create(account.id, { scopes, ...(flags.name ? { name: flags.name } : {}) });
      print(
        { key, api_key: secret },
        `Key ${key.id} for ${account.id}, scopes ${key.scopes.join(' ')}\nAPI key (shown only once): ${secret}`,
      );
      return 0;
    }
    case 'key list': {
      const account = await requireAccount(services, flags.account);
      const keys = await services.apiKeys.list(account.id);
      print(
        { keys },
        keys
          .map(
            (key) =>
              `${key.id}  ${key.prefix}…  ${key.revoked_at ? 'revoked' : 'active'}  ${new Date(key.created_at).toISOString()}  ${key.scopes.join(',')}`,
          )
          .join('\n') || 'No keys.',
      );
      return 0;
    }
    case 'key revoke': {
      const keyId = rest[0];
      if (!keyId) throw new UsageError('key revoke needs KEY_ID');
      if (!(await services.apiKeys.revoke(keyId))) {
        console.error(`No active key ${keyId}.`);
        return 1;
      }
      print({ revoked: keyId }, `Revoked ${keyId}.`);
      return 0;
    }
    case 'denylist add':
    case 'denylist remove': {
      const input = rest[0];
      if (!input) throw new UsageError(`${command} needs a domain (evil.example) or a URL prefix (https://host/path)`);
      try {
        if (command === 'denylist add') {
          const { added, entry } = await services.denylist.add(input);
          print({ added, ...entry }, `${added ? 'Added' : 'Already listed:'} ${entry.kind} ${entry.value}`);
        } else {
          const { removed, entry } = await services.denylist.remove(input);
          print({ removed, ...entry }, `${removed ? 'Removed' : 'Not listed:'} ${entry.kind} ${entry.value}`);
          if (!removed) return 1;
        }
      } catch (error) {
        if (error instanceof InvalidDenylistEntry) throw new UsageError(error.message);
        throw error;
      }
      return 0;
    }
    case 'denylist list': {
      const entries = await services.denylist.list();
      print({ entries }, entries.map((entry) => `${entry.kind.padEnd(6)}  ${entry.value}`).join('\n') || 'The denylist is empty.');
      return 0;
    }
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
  }
}

async function requireAccount(services: Services, id: string | undefined): Promise<AccountView> {
  if (!id) throw new UsageError('needs --account ACCOUNT_ID');
  const account = await services.accounts.get(id);
  if (!account) throw new UsageError(`No account ${id}.`);
  return account;
}

function wholeNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number`);
  return Number(value);
}

/**
 * A limit flag: a whole number, or one of the words it takes. `default` (back to the plan's) is
 * null; `none` (no rate limit) is 0, as in API_RATE_LIMIT_<PLAN>.
 */
function limitSetting(value: string | undefined, flag: string, words: ('default' | 'none')[]): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default' && words.includes('default')) return null;
  if (value === 'none' && words.includes('none')) return 0;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number${words.map((word) => ` or ${word}`).join('')}`);
  return Number(value);
}

function describeAccount(account: AccountView, planRateLimits: Record<Plan, number>): string {
  const limit = (value: number | null) => (value === null ? 'unlimited' : String(value));
  const rate = account.api_rate_limit ?? planRateLimits[account.plan];
  const rateText = `${rate === 0 ? 'none' : `${rate}/min`}${account.api_rate_limit === null ? ' (plan)' : ''}`;
  return `${account.id}  ${account.name}  plan=${account.plan}  links=${limit(account.link_limit)}  tags=${limit(account.tag_limit)}  api-rate=${rateText}`;
}

/** Exit code of a command the database could not serve (sysexits' EX_UNAVAILABLE): try again later. */
const EXIT_DATABASE_UNAVAILABLE = 69;

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError) && toAppError(error).code === 'DATABASE_UNAVAILABLE') {
    // Every connection and statement is bounded (DATABASE_QUERY_TIMEOUT_MS), so a hung database
    // ends here rather than holding the command for ever.
    console.error(
      `error: the database did not answer (${(error as Error).message}). Check that PostgreSQL is running and reachable ` +
        '(DATABASE_URL, or the embedded one under DATA_DIR), then run the command again.',
    );
    process.exitCode = EXIT_DATABASE_UNAVAILABLE;
  } else {
    console.error(error instanceof UsageError ? error.message : `error: ${(error as Error).message}`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}
