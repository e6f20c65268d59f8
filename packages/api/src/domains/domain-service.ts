import { randomBytes } from 'node:crypto';
import { type CreateDomainBody, type Domain, type DomainList, LIMITS, type UpdateDomainBody } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { type Db, inTransaction, reader } from '../database/database.ts';
import type { DestinationChecker } from '../destinations/destination-checker.ts';
import { AppError, validationError } from '../errors.ts';
import { Changes } from '../events/change-log.ts';
import { type RecordedChange, recordChange, recordChanges } from '../events/record-change.ts';
import { newId } from '../ids.ts';
import type { DomainDirectory } from './domain-directory.ts';
import { domainNameOf, verificationRecordName, verificationRecordValue } from './domain-name.ts';
import { DOMAIN_COLUMNS, type DomainRow, GRACE_MS, statusOf, toDomain } from './domain-view.ts';
import type { TxtAnswer, TxtLookup } from './txt-lookup.ts';

/** How often a verified domain's record is looked up again, unless configured (DOMAIN_CHECK_INTERVAL_MINUTES). */
export const DEFAULT_DOMAIN_CHECK_INTERVAL_MS = 3_600_000;

/** Domains re-checked per round, so one round stays short; the next round takes the rest. */
const RECHECK_BATCH = 100;

/**
 * Branded domains (docs/domains.md): adding one, proving it with a DNS TXT record, its root and
 * not-found redirects, the default, deleting it; and the periodic re-check that stops a domain
 * whose record has been gone for 7 days.
 */
export class DomainService {
  readonly #orm: Orm;
  readonly #shortDomainHost: string;
  readonly #directory: DomainDirectory;
  readonly #txt: TxtLookup;
  readonly #urls: Pick<DestinationChecker, 'domainRedirect'>;
  /**
   * Where each change of a domain is recorded, in its transaction (events/change-log.ts): the audit
   * log hears of every one, the webhooks of `domain.verified`.
   */
  readonly #changes: Changes;

  constructor(
    orm: Orm,
    shortDomainHost: string,
    directory: DomainDirectory,
    txt: TxtLookup,
    urls: Pick<DestinationChecker, 'domainRedirect'>,
    changes = new Changes(),
  ) {
    this.#changes = changes;
    this.#orm = orm;
    this.#shortDomainHost = shortDomainHost;
    this.#directory = directory;
    this.#txt = txt;
    this.#urls = urls;
  }

  get directory(): DomainDirectory {
    return this.#directory;
  }

  async create(accountId: string, body: CreateDomainBody): Promise<Domain> {
    const name = domainNameOf(body.name, this.#shortDomainHost);
    const row = await this.#changing(async (db) => {
      // The workspace's row is locked first, so two adds at once cannot both pass the cap.
      await db.selectFrom('account').select('id').where('id', '=', accountId).forUpdate().executeTakeFirstOrThrow();
      const taken = await db
        .selectFrom('domain')
        .select('account_id')
        .where('name', '=', name)
        .where((eb) => eb.or([eb('verified_at', 'is not', null), eb('account_id', '=', accountId)]))
        .execute();
      if (taken.some((holder) => holder.account_id === accountId)) {
        throw new AppError('DOMAIN_TAKEN', `The workspace has already added ${name}`, 'name');
      }
      if (taken.length > 0) throw new AppError('DOMAIN_TAKEN', `Another workspace has verified ${name}`, 'name');
      const { count } = await db
        .selectFrom('domain')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= LIMITS.domainsPerWorkspace) {
        throw new AppError(
          'DOMAIN_LIMIT_REACHED',
          `A workspace has at most ${LIMITS.domainsPerWorkspace} domains; delete one first`,
          'name',
        );
      }
      const created = await db
        .insertInto('domain')
        .values({ id: newId('dom'), account_id: accountId, name, verification_token: randomBytes(18).toString('base64url') })
        .returning(DOMAIN_COLUMNS)
        .executeTakeFirstOrThrow();
      await recordChange(this.#changes, db, accountId, 'domain.created', toDomain(created));
      return created;
    });
    return toDomain(row);
  }

  async list(accountId: string): Promise<DomainList> {
    const rows = await reader(this.#orm)
      .selectFrom('domain')
      .select(DOMAIN_COLUMNS)
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return { domains: rows.map(toDomain), server_domain: this.#shortDomainHost };
  }

  async get(accountId: string, id: string): Promise<Domain> {
    return toDomain(await this.#row(reader(this.#orm), accountId, id));
  }

  async update(accountId: string, id: string, body: UpdateDomainBody): Promise<Domain> {
    const [root, notFound] = await Promise.all([
      body.root_redirect_url ? this.#urls.domainRedirect('root_redirect_url', body.root_redirect_url) : body.root_redirect_url,
      body.not_found_url ? this.#urls.domainRedirect('not_found_url', body.not_found_url) : body.not_found_url,
    ]);
    const row = await this.#changing(async (db) => {
      const current = await this.#row(db, accountId, id, true);
      if (body.is_default === true && current.verified_at === null) {
        throw validationError('is_default', 'Only a verified domain can be the default domain');
      }
      const recorded: RecordedChange[] = [];
      if (body.is_default === true && !current.is_default) {
        // The previous default stops being it: a change of that domain too.
        const previous = await db
          .selectFrom('domain')
          .select(DOMAIN_COLUMNS)
          .where('account_id', '=', accountId)
          .where('is_default', '=', true)
          .forUpdate()
          .execute();
        const unset = await db
          .updateTable('domain')
          .set({ is_default: false })
          .where('account_id', '=', accountId)
          .where('is_default', '=', true)
          .returning(DOMAIN_COLUMNS)
          .execute();
        for (const after of unset) {
          const before = previous.find((domain) => domain.id === after.id);
          recorded.push({ type: 'domain.updated', data: toDomain(after), ...(before ? { before: toDomain(before) } : {}) });
        }
      }
      const updated = await db
        .updateTable('domain')
        .set({
          ...(root === undefined ? {} : { root_redirect_url: root }),
          ...(notFound === undefined ? {} : { not_found_url: notFound }),
          ...(body.is_default === undefined ? {} : { is_default: body.is_default }),
        })
        .where('id', '=', current.id)
        .returning(DOMAIN_COLUMNS)
        .executeTakeFirstOrThrow();
      recorded.push({ type: 'domain.updated', data: toDomain(updated), before: toDomain(current) });
      await recordChanges(this.#changes, db, accountId, recorded);
      return updated;
    });
    return toDomain(row);
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.#changing(async (db) => {
      // Locked first: a link being written on the domain holds its key until it commits, so it is counted.
      const domain = await this.#row(db, accountId, id, true);
      const { count } = await db
        .selectFrom('link')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('domain_id', '=', domain.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(count) > 0) {
        const one = Number(count) === 1;
        throw new AppError(
          'DOMAIN_HAS_LINKS',
          `${count} live link${one ? ' uses' : 's use'} ${domain.name}; delete ${one ? 'it' : 'them'} first`,
        );
      }
      await db.deleteFrom('domain').where('id', '=', domain.id).execute();
      await recordChange(this.#changes, db, accountId, 'domain.deleted', toDomain(domain));
    });
  }

  /** POST /domains/{id}/verify: looks the record up now; the domain, verified or with what was found instead. */
  async verify(accountId: string, id: string, now = Date.now()): Promise<Domain> {
    const domain = await this.#row(reader(this.#orm), accountId, id);
    const answer = await this.#txt.lookup(verificationRecordName(domain.name));
    const row = await this.#changing((db) => this.#applyCheck(db, domain.id, answer, now, true));
    return toDomain(row);
  }

  /**
   * One round of the periodic re-check: every domain verified or stopped whose last look-up is
   * older than `intervalMs` is looked up again. Claimed by setting `last_checked_at` with SKIP
   * LOCKED, so several instances share the work instead of repeating it.
   */
  async recheck(now = Date.now(), intervalMs = DEFAULT_DOMAIN_CHECK_INTERVAL_MS): Promise<number> {
    const claimed = await inTransaction(this.#orm, (db) =>
      db
        .updateTable('domain')
        .set({ last_checked_at: new Date(now) })
        .where(
          'id',
          'in',
          db
            .selectFrom('domain')
            .select('id')
            .where((eb) => eb.or([eb('verified_at', 'is not', null), eb('record_missing_since', 'is not', null)]))
            .where((eb) => eb.or([eb('last_checked_at', 'is', null), eb('last_checked_at', '<', new Date(now - intervalMs))]))
            .orderBy('last_checked_at')
            .limit(RECHECK_BATCH)
            .forUpdate()
            .skipLocked(),
        )
        .returning(['id', 'name'])
        .execute(),
    );
    for (const domain of claimed) {
      const answer = await this.#txt.lookup(verificationRecordName(domain.name));
      await this.#changing((db) => this.#applyCheck(db, domain.id, answer, now, false)).catch(() => undefined);
    }
    return claimed.length;
  }

  /**
   * What a look-up means for the domain: found, it is verified (unless another workspace holds the
   * name: DOMAIN_TAKEN on a verify, nothing on a re-check); not found, a verified domain starts or
   * continues its 7 days of grace, and stops at their end. A failed look-up changes nothing but the error.
   */
  async #applyCheck(db: Db, id: string, answer: TxtAnswer, now: number, asked: boolean): Promise<DomainRow> {
    const domain = await db.selectFrom('domain').select(DOMAIN_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!domain) throw new AppError('DOMAIN_NOT_FOUND');
    const expected = verificationRecordValue(domain.verification_token);
    const at = new Date(now);
    const update = db.updateTable('domain').where('id', '=', id).returning(DOMAIN_COLUMNS);
    if (answer.kind === 'found' && answer.values.includes(expected)) {
      if (domain.verified_at === null) {
        const holder = await db
          .selectFrom('domain')
          .select('id')
          .where('name', '=', domain.name)
          .where('verified_at', 'is not', null)
          .executeTakeFirst();
        if (holder) {
          if (asked) throw new AppError('DOMAIN_TAKEN', `Another workspace has verified ${domain.name}`, 'name');
          return update
            .set({ last_checked_at: at, last_check_error: 'Another workspace has verified this name' })
            .executeTakeFirstOrThrow();
        }
      }
      const verified = await update
        .set({ verified_at: domain.verified_at ?? at, record_missing_since: null, last_checked_at: at, last_check_error: null })
        .executeTakeFirstOrThrow();
      await this.#recordCheck(db, domain, verified);
      return verified;
    }
    const error = describeMiss(verificationRecordName(domain.name), expected, answer);
    if (answer.kind === 'failed' || (domain.verified_at === null && domain.record_missing_since === null)) {
      return update.set({ last_checked_at: at, last_check_error: error }).executeTakeFirstOrThrow();
    }
    const since = domain.record_missing_since ?? at;
    const stop = domain.verified_at !== null && now - since.getTime() >= GRACE_MS;
    const checked = await update
      .set({ last_checked_at: at, last_check_error: error, record_missing_since: since, ...(stop ? { verified_at: null } : {}) })
      .executeTakeFirstOrThrow();
    await this.#recordCheck(db, domain, checked);
    return checked;
  }

  /**
   * What a look-up changed, recorded in its transaction, so the webhooks and the audit log hear of
   * it once it commits and never of one rolled back: `domain.verified` when it starts serving (a new
   * domain, or a stopped one whose record came back), `domain.updated` when its status changes
   * otherwise (its record went missing, came back within the grace, or it stopped). A look-up that
   * changes only when it was made is no change anyone asked for: the hourly re-check records nothing.
   */
  async #recordCheck(db: Db, before: DomainRow, after: DomainRow): Promise<void> {
    if (before.verified_at === null && after.verified_at !== null) {
      await recordChange(this.#changes, db, after.account_id, 'domain.verified', toDomain(after), toDomain(before));
    } else if (statusOf(before).status !== statusOf(after).status) {
      await recordChange(this.#changes, db, after.account_id, 'domain.updated', toDomain(after), toDomain(before));
    }
  }

  /** Runs a change of domains, then reloads this process's directory before answering (other processes hear it announced). */
  async #changing<T>(work: (db: Db) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.#orm, work);
    } finally {
      await this.#directory.reload().catch(() => undefined);
    }
  }

  async #row(db: Db, accountId: string, id: string, lock = false): Promise<DomainRow> {
    if (!id.startsWith('dom_')) throw new AppError('DOMAIN_NOT_FOUND');
    const query = db.selectFrom('domain').select(DOMAIN_COLUMNS).where('account_id', '=', accountId).where('id', '=', id);
    const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
    if (!row) throw new AppError('DOMAIN_NOT_FOUND');
    return row;
  }
}

/** What a verification found instead of the expected value, in words. */
export function describeMiss(record: string, expected: string, answer: TxtAnswer): string {
  if (answer.kind === 'failed') return `The DNS look-up of ${record} failed (${answer.reason}); try again later`;
  if (answer.kind === 'none' || answer.values.length === 0) return `No TXT record found at ${record}; expected "${expected}"`;
  const found = answer.values
    .slice(0, 5)
    .map((value) => JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value))
    .join(', ');
  return `Found ${found} at ${record} instead of "${expected}"`;
}

/**
 * The periodic re-check (docs/domains.md): one round every `intervalMs / 6` (at least a minute),
 * each taking the domains not looked up for `intervalMs`, so a domain is re-checked about once an
 * interval whichever instance does it.
 */
export class DomainRechecks {
  readonly #domains: DomainService;
  readonly #intervalMs: number;
  readonly #log: ((message: string) => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<unknown> | undefined;

  constructor(domains: DomainService, intervalMs = DEFAULT_DOMAIN_CHECK_INTERVAL_MS, log?: (message: string) => void) {
    this.#domains = domains;
    this.#intervalMs = intervalMs;
    this.#log = log;
  }

  start(): void {
    if (this.#timer) return;
    const every = Math.max(60_000, Math.floor(this.#intervalMs / 6));
    this.#timer = setInterval(() => {
      if (this.#round) return;
      this.#round = this.#domains
        .recheck(Date.now(), this.#intervalMs)
        .catch((error: unknown) => this.#log?.(`domain re-check failed: ${(error as Error).message}`))
        .finally(() => {
          this.#round = undefined;
        });
    }, every);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#round;
  }
}
