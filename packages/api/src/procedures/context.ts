import type { Caller } from '../accounts/api-key-service.ts';
import type { WebExchange } from '../people/sign-in-attempts.ts';
import type { Services } from '../services.ts';

/** What every procedure sees. Built per request by the transport (REST or tRPC). */
export interface Context {
  services: Services;
  transport: 'rest' | 'trpc';
  /** Who the request comes from (an API key, or on tRPC a session), as the server's authentication found it; null without one. */
  caller: Caller | null;
  /**
   * The address the request came from, as the server reads it (Fastify's `request.ip`, which
   * follows TRUST_PROXY): what the audit log keeps of where a change came from. Absent in-process.
   */
  ip?: string | null | undefined;
  /** The HTTP exchange, for the procedures that sign in and out (tRPC only; absent on REST and in-process calls). */
  web?: WebExchange | undefined;
}
