import type { AuditLogService } from './audit-log-service.ts';

/** How long audit entries are kept by default (AUDIT_RETENTION_DAYS). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

/** How often each process deletes the entries past the retention: hourly keeps a backlog small. */
const SWEEP_EVERY_MS = 3_600_000;

/**
 * Deletes audit entries older than AUDIT_RETENTION_DAYS, once when the server starts and then
 * every hour, in bounded batches (audit-log-service.ts). Every instance sweeps: the batches skip
 * rows another instance is deleting, so they share the work rather than wait on each other.
 */
export class AuditRetention {
  readonly #log: AuditLogService;
  readonly days: number;
  readonly #warn: (message: string) => void;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<unknown> | undefined;

  constructor(log: AuditLogService, days = DEFAULT_AUDIT_RETENTION_DAYS, warn: (message: string) => void = console.warn) {
    this.#log = log;
    this.days = days;
    this.#warn = warn;
  }

  start(warn: (message: string) => void = this.#warn): void {
    if (this.#timer) return;
    const sweep = () => {
      this.#sweeping ??= this.sweep()
        .catch((error: Error) => warn(`audit log retention: ${error.message}`))
        .finally(() => {
          this.#sweeping = undefined;
        });
    };
    sweep();
    this.#timer = setInterval(sweep, SWEEP_EVERY_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#sweeping;
  }

  /** Deletes the entries past the retention now; how many. */
  sweep(): Promise<number> {
    return this.#log.deleteOlderThan(this.days);
  }
}
