import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditActor } from '@shortlinks/contract';
import type { Caller } from '../accounts/caller.ts';

/** Who makes the changes of the work under way, and from which address (null: no request). */
export interface Acting {
  actor: AuditActor;
  ip: string | null;
}

/** The server's own work (a domain's scheduled re-check, say), outside any request. */
export const SERVER_ACTING: Acting = { actor: { type: 'system', id: 'system', name: 'server' }, ip: null };

/** The operator's command line. */
export const COMMAND_LINE_ACTING: Acting = { actor: { type: 'system', id: 'system', name: 'command line' }, ip: null };

/**
 * Who acts, for the audit log (docs/accounts.md, "The audit log"). An AsyncLocalStorage rather
 * than a parameter: every write already records its changes through the change log it opens in
 * its own transaction (events/change-log.ts), so the audit outlet, which writes them, reads the
 * actor here, and no service signature (links, tags, keys, members, domains, webhooks, imports,
 * bulk calls…) carries it.
 *
 * Its cost is kept to the writes: on Node 22 a storage that is entered switches on async hooks for
 * every promise of the process (about a tenth of a redirect's CPU, docs/performance.md), so only
 * mutations enter it (procedures/trpc.ts) and it is disabled again, hooks off, whenever no work is
 * inside it. Reads, visits and the click recorder never run under it (async-context.test.ts).
 */
const storage = new AsyncLocalStorage<Acting>();
/** Works inside {@link actingAs} now: the storage is disabled when it falls back to 0. */
let inside = 0;
/** Who acts outside any {@link actingAs}: the server itself, or the command line (`actByDefault`). */
let outside: Acting = SERVER_ACTING;

/** Runs `work` as `actor` from `ip`: every change it makes is written to the audit log under their name. */
export async function actingAs<T>(actor: AuditActor, ip: string | null, work: () => Promise<T>): Promise<T> {
  inside++;
  try {
    return await storage.run({ actor, ip }, work);
  } finally {
    inside--;
    // No work needs it any more: switch the hooks off until the next write.
    if (inside === 0) storage.disable();
  }
}

/** Who acts now: the innermost {@link actingAs}, else the process's default. */
export function currentActing(): Acting {
  return storage.getStore() ?? outside;
}

/** Who acts outside any request in this process: the command line says so at start. */
export function actByDefault(acting: Acting): void {
  outside = acting;
}

/**
 * The actor a request's caller stands for: an API key (its id and name, whoever made it, the
 * operator's included), or a signed-in person (their id and email, which is what names them).
 */
export function actorOf(caller: Caller): AuditActor {
  if (caller.keyId !== null) return { type: 'key', id: caller.keyId, name: caller.keyName ?? 'API key' };
  if (caller.user) return { type: 'user', id: caller.user.id, name: caller.user.email };
  return SERVER_ACTING.actor;
}
