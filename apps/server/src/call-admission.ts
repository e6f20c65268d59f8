import { type ProcedureCall, procedureMeta, requestWeight } from '@shortlinks/api';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What a request's procedure calls must pass, on either transport, before any of them runs, once
 * its body is read: their weight in the key's rate limit (the 1 counted on arrival included:
 * rate-limits.ts), then a slot of the account's concurrent exports for each export among them
 * (export-limits.ts). Throws 429 RATE_LIMITED, and none runs, when either does not fit.
 */
export async function admitCalls(request: FastifyRequest, reply: FastifyReply, calls: readonly ProcedureCall[]): Promise<void> {
  await request.server.spendRateLimit(request, reply, requestWeight(calls));
  request.server.holdExports(request, reply, calls.filter((call) => procedureMeta(call.path)?.streamed).length);
}
