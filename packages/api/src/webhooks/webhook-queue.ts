import { type Orm, queuePool } from '@shortlinks/db';
import { Logger, type Runner, run, runMigrations } from 'graphile-worker';
import { sql } from 'kysely';
import { reader } from '../database/database.ts';
import { Changes } from '../events/change-log.ts';
import { DELIVERY_TASK, enqueueDelivery, WebhookSender } from './webhook-sender.ts';
import type { WebhookSettings } from './webhook-settings.ts';

/** Jobs one process runs at once, over all webhooks (each webhook has its own share: webhook-sender.ts). */
const JOBS_AT_ONCE = 8;
/** How often each process sweeps: deliveries left without a job, and records past WEBHOOK_LOG_DAYS. */
const SWEEP_MS = 15_000;
/** A due delivery this long overdue, and not taken, has lost its job (a sender killed, a restore). */
const OVERDUE = '30 seconds';

/**
 * The delivery queue: graphile-worker on the application's own PostgreSQL (docs/webhooks.md, "Why
 * graphile-worker"). Its schema (`graphile_worker`) is installed and upgraded by graphile-worker
 * itself on start, apart from the application's migrations, and is not in backups: what must
 * survive (the deliveries) is in the application's tables, and the sweep gives every pending
 * delivery its job again.
 */
export class WebhookQueue {
  readonly #orm: Orm;
  readonly #settings: WebhookSettings;
  readonly #sender: WebhookSender;
  #runner: Runner | undefined;
  #pool: ReturnType<typeof queuePool> | undefined;
  #sweeper: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;

  /** `changes`: where a webhook the sender disables is recorded (events/change-log.ts). */
  constructor(orm: Orm, settings: WebhookSettings, changes = new Changes()) {
    this.#orm = orm;
    this.#settings = settings;
    this.#sender = new WebhookSender(orm, settings, changes);
  }

  /** Installs the queue's schema when missing and starts sending; `warn` hears of the queue's problems. */
  async start(databaseUrl: string, warn: (message: string) => void = console.warn): Promise<void> {
    const logger = new Logger(() => (level, message) => {
      if (level === 'error' || level === 'warning') warn(`webhooks queue: ${message}`);
    });
    await runMigrations({ connectionString: databaseUrl, logger });
    // Our own pool, so that no connection's error goes unheard (queuePool); ended after the runner.
    this.#pool = queuePool(databaseUrl, JOBS_AT_ONCE + 2, (message) => warn(`webhooks queue: ${message}`));
    this.#runner = await run({
      pgPool: this.#pool,
      logger,
      concurrency: JOBS_AT_ONCE,
      // The server handles signals: it stops the queue on close.
      noHandleSignals: true,
      pollInterval: 2_000,
      taskList: {
        [DELIVERY_TASK]: async (payload) => {
          await this.#sender.deliver((payload as { id: string }).id);
        },
      },
    });
    const sweep = () => {
      this.#sweeping ??= this.sweep()
        .catch((error: Error) => warn(`webhooks sweep: ${error.message}`))
        .finally(() => {
          this.#sweeping = undefined;
        });
    };
    sweep();
    this.#sweeper = setInterval(sweep, SWEEP_MS);
    this.#sweeper.unref();
  }

  /** Stops taking jobs, lets those running finish (a POST takes 15 s at most), and stops. */
  async stop(): Promise<void> {
    clearInterval(this.#sweeper);
    await this.#sweeping;
    await this.#runner?.stop();
    this.#runner = undefined;
    await this.#pool?.end();
    this.#pool = undefined;
  }

  /**
   * Gives each pending delivery of an enabled webhook that is overdue, not taken and without a job
   * waiting to run (its job lost with a killed sender, or never added) its job again,
   * and deletes delivery records past WEBHOOK_LOG_DAYS. Every process may sweep at once: adding a
   * job by its key moves the waiting one, and sending takes the delivery first.
   */
  async sweep(): Promise<void> {
    const db = reader(this.#orm);
    const { rows } = await sql<{ id: string }>`
      select d.id from webhook_delivery d join webhook w on w.id = d.webhook_id
      where d.status = 'pending' and (w.enabled or d.type = 'webhook.test')
        and d.next_attempt_at < clock_timestamp() - ${OVERDUE}::interval
        and (d.claimed_until is null or d.claimed_until < clock_timestamp())
        -- Only those without a job that will run: a backlog waiting its turn (a click flush makes
        -- thousands at once) keeps its jobs, rather than having them added again every sweep.
        and not exists (
          select 1 from graphile_worker.jobs j
          where j.key = ${`${DELIVERY_TASK}:`} || d.id and j.locked_at is null and j.attempts < j.max_attempts)
      order by d.next_attempt_at limit 1000`.execute(db);
    for (const { id } of rows) await enqueueDelivery(db, id);
    const cutoff = `${this.#settings.logDays} days`;
    await sql`delete from webhook_delivery where id in (
      select id from webhook_delivery where created_at < clock_timestamp() - ${cutoff}::interval and status <> 'pending' limit 5000)`.execute(
      db,
    );
    await sql`delete from webhook_event e where e.id in (
      select id from webhook_event where created_at < clock_timestamp() - ${cutoff}::interval limit 5000)
      and not exists (select 1 from webhook_delivery d where d.event_id = e.id)`.execute(db);
  }
}
