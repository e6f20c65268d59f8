import type { FastifyBaseLogger } from 'fastify';
import { VisitCounts } from './visit-counts.ts';

/** How often the info line summing up short-link visits is written. */
export const VISIT_SUMMARY_MS = 60_000;

/** pino's numeric levels: debug is 20. */
const DEBUG = 20;

/**
 * How short-link visits reach the log. Each visit's own line (method, path, status, time) is
 * written at debug; at info, the default, one line a minute sums them up by status. A line per
 * visit cost the redirect path about a third of its throughput at the default level, even written
 * asynchronously (docs/performance.md); API requests keep their line each at info. The summary is
 * written for the last part of a minute too when the server closes, so a stop loses no count.
 */
export class VisitLog {
  /** Every visit since start, for metrics. */
  readonly counts = new VisitCounts();
  readonly #log: () => FastifyBaseLogger | undefined;
  #counts = new Map<number, number>();
  #timer: NodeJS.Timeout | undefined;

  /** `log` is the server's logger, once Fastify has made it (the fast path's server is made first). */
  constructor(log: () => FastifyBaseLogger | undefined, intervalMs = VISIT_SUMMARY_MS) {
    this.#log = log;
    this.#timer = setInterval(() => this.summarise(), intervalMs).unref();
  }

  /** Whether each visit's line is written: only then is it worth timing a visit. */
  get eachLine(): boolean {
    const logger = this.#log() as (FastifyBaseLogger & { levelVal: number }) | undefined;
    return (logger?.levelVal ?? Number.POSITIVE_INFINITY) <= DEBUG;
  }

  /** Counts a visit, and writes its line at debug; `ms` is its time when {@link eachLine} was true. */
  visited(method: string, url: string, status: number, bot: boolean, ms: number | undefined): void {
    this.counts.count(status, bot);
    this.#counts.set(status, (this.#counts.get(status) ?? 0) + 1);
    if (ms !== undefined) this.#log()?.debug({ method, url, status, ms: Math.round(ms * 10) / 10 }, 'visit');
  }

  /** Writes the counts since the last summary (nothing when there were no visits) and starts again. */
  summarise(): void {
    if (this.#counts.size === 0) return;
    const statuses = Object.fromEntries([...this.#counts].sort(([a], [b]) => a - b).map(([status, count]) => [String(status), count]));
    const visits = [...this.#counts.values()].reduce((sum, count) => sum + count, 0);
    this.#counts = new Map();
    this.#log()?.info({ visits, statuses }, 'visits');
  }

  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.summarise();
  }
}
