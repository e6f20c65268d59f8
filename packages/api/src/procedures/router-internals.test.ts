import { type AnyRouter, getTRPCErrorFromUnknown, initTRPC } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import type { Services } from '../services.ts';
import type { Context } from './context.ts';
import { appRouter } from './root.ts';
import { errorShapeOf, proceduresOf } from './router-internals.ts';

// No services: every call below is refused before a procedure would use them.
const anonymous: Context = { services: {} as Services, transport: 'trpc', caller: null };

describe("tRPC's router internals, read in one place", () => {
  it("reads every procedure of the app's router at start, with its type and meta", () => {
    const procedures = proceduresOf(appRouter);
    expect(procedures.get('links.get')).toMatchObject({ type: 'query', meta: { openapi: { method: 'GET', path: '/links/{id}' } } });
    expect(procedures.get('links.create')).toMatchObject({ type: 'mutation', meta: { success: 201 } });
    for (const procedure of procedures.values()) {
      expect(['query', 'mutation']).toContain(procedure.type);
      expect(procedure.meta.errors).toBeInstanceOf(Array);
    }
  });

  it('stops the start on a procedure without a meta, naming it', () => {
    const t = initTRPC.create();
    const router = t.router({ ping: t.procedure.query(() => 'pong') });
    expect(() => proceduresOf(router)).toThrow(/`ping` has no `_def.meta`/);
  });

  it('stops the start on a router whose internals are shaped otherwise (a tRPC upgrade)', () => {
    const moved = { _def: { record: { ping: () => 'pong' } } } as unknown as AnyRouter;
    expect(() => proceduresOf(moved)).toThrow(/no `_def.procedures`/);
    const nested = { _def: { procedures: { links: { get: () => 'a link' } } } } as unknown as AnyRouter;
    expect(() => proceduresOf(nested)).toThrow(/`links` is not a procedure/);
    const untyped = { _def: { procedures: { ping: Object.assign(() => 'pong', { _def: { meta: {} } }) } } } as unknown as AnyRouter;
    expect(() => proceduresOf(untyped)).toThrow(/`ping` has no `_def.type`/);
    expect(() => errorShapeOf({ _def: {} } as unknown as AnyRouter)).toThrow(/no `_def._config.errorFormatter`/);
  });

  it("calls a procedure through its middlewares: the API's refuses a call without a caller", async () => {
    const get = proceduresOf(appRouter).get('links.get');
    await expect(get?.call(anonymous, { id: 'lnk_V1StGXR8Z5jdHi' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it("shapes a failed call's error through the router's errorFormatter, as tRPC's adapter does", async () => {
    const get = proceduresOf(appRouter).get('links.get');
    const error = getTRPCErrorFromUnknown(await get?.call(anonymous, { id: 'lnk_V1StGXR8Z5jdHi' }).catch((cause) => cause));
    const shape = errorShapeOf(appRouter)(error, { ctx: anonymous, input: undefined, path: 'links.get', type: 'query' });
    expect(shape).toMatchObject({ data: { appCode: 'UNAUTHORIZED', httpStatus: 401, path: 'links.get' } });
  });
});
