import { AppError } from '@shortlinks/api/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endSlowReader } from './slow-readers.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Lets a request run `exports` exports of its caller's account (a REST export is one, a tRPC
     * batch one per export call), or throws 429 RATE_LIMITED with `Retry-After` and runs none.
     * Held until the answer ends, which a reader too slow for `ExportLimits` brings about.
     */
    holdExports(request: FastifyRequest, reply: FastifyReply, exports: number): void;
  }
}

/**
 * What exports may hold of a server (docs/security.md, "Exports"). An export holds at most a page
 * of links and a chunk of the file however slowly it is read (link-export.ts), so the memory of
 * all of them is bounded by how many there are and how long a stalled one lives.
 */
export interface ExportLimits {
  /** Exports one account may have running at once in this process (EXPORTS_PER_ACCOUNT). */
  perAccount: number;
  /** An export whose reader took fewer than this many bytes in `slowMs` is ended (EXPORT_SLOW_READER_KIB). */
  slowBytes: number;
  /** EXPORT_SLOW_READER_SECONDS, in ms. */
  slowMs: number;
}

/**
 * Three at once lets a person export while a script does; a reader that takes less than 64 KiB in
 * 30 s (about 2 KiB/s, slower than any working connection) is taken for one that stopped.
 */
export const DEFAULT_EXPORT_LIMITS: ExportLimits = { perAccount: 3, slowBytes: 64 * 1024, slowMs: 30_000 };

/** When an export refused over the cap may be tried again: a full starter account exports in about a second. */
export const EXPORT_RETRY_AFTER_SECONDS = 5;

/** Exports running per account in this process. */
export class ExportSlots {
  readonly #running = new Map<string, number>();

  /** Takes `count` slots of the account if they fit under `max`, all or none. */
  take(accountId: string, count: number, max: number): boolean {
    const running = this.#running.get(accountId) ?? 0;
    if (running + count > max) return false;
    this.#running.set(accountId, running + count);
    return true;
  }

  release(accountId: string, count: number): void {
    const running = (this.#running.get(accountId) ?? 0) - count;
    if (running > 0) this.#running.set(accountId, running);
    else this.#running.delete(accountId);
  }

  running(accountId: string): number {
    return this.#running.get(accountId) ?? 0;
  }
}

/**
 * Decorates the server with `holdExports`. Counted per process, like the memory it protects: with
 * several instances behind a load balancer, an account may run this many on each.
 */
export function registerExportLimits(app: FastifyInstance, limits: ExportLimits): void {
  const slots = new ExportSlots();
  app.decorate('holdExports', (request: FastifyRequest, reply: FastifyReply, exports: number) => {
    // Without a caller the procedure refuses the call itself (401), and nothing runs.
    if (exports === 0 || !request.caller) return;
    const { accountId } = request.caller;
    if (!slots.take(accountId, exports, limits.perAccount)) {
      reply.header('retry-after', EXPORT_RETRY_AFTER_SECONDS);
      const running = slots.running(accountId);
      throw new AppError(
        'RATE_LIMITED',
        `This account is running ${running} of its ${limits.perAccount} exports at once` +
          `${exports > 1 ? `, and this request asks for ${exports} more` : ''}; retry in ${EXPORT_RETRY_AFTER_SECONDS} seconds`,
      );
    }
    // 'close' comes once the answer has ended, whether it was read to its end or its connection was cut.
    reply.raw.once('close', () => slots.release(accountId, exports));
    endSlowReader(request, reply, limits);
  });
}
