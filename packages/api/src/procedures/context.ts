import type { Caller } from '../accounts/api-key-service.ts';
import type { Services } from '../services.ts';

/** What every procedure sees. Built per request by the transport (REST or tRPC). */
export interface Context {
  services: Services;
  transport: 'rest' | 'trpc';
  /** Who the request's API key belongs to, as the server's authentication found it; null without a valid key. */
  caller: Caller | null;
}
