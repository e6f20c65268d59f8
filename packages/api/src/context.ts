import type { Services } from './services/index.ts';

/** What every procedure sees. Built per request by the transport (REST or tRPC). */
export interface Context {
  services: Services;
  transport: 'rest' | 'trpc';
  /** The `Authorization` header as sent. */
  authorization: string | undefined;
  /** The account, when the transport has already authenticated the request. */
  accountId?: string | undefined;
}
