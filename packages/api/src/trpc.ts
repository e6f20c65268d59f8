import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context.ts';
import { AppError, toAppError, toTRPCError } from './errors.ts';

/** Procedure metadata: the REST mapping, and the HTTP status of a success when it is not 200. */
export type Meta = OpenApiMeta & { successStatus?: 201 | 204 };

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // Both transports report the app's code, field and status in `data` (see apps/server's
    // error rewriting for REST, and packages/client for typed errors).
    errorFormatter({ shape, error, input }) {
      const app = toAppError(error, input);
      return {
        ...shape,
        message: app.message,
        data: {
          ...shape.data,
          httpStatus: app.status,
          appCode: app.code,
          // trpc-to-openapi replaces the top-level message of input errors; REST reads this one.
          appMessage: app.message,
          field: app.field ?? null,
          stack: undefined,
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Domain errors become TRPCErrors whose code carries the spec's HTTP status. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
  return result;
});

export const publicProcedure = t.procedure.use(appErrors);

/** Needs `Authorization: Bearer <API key>`; gives the procedure the caller's account id. */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  let accountId = ctx.accountId;
  if (accountId === undefined) {
    const caller = await ctx.services.apiKeys.authenticate(bearerToken(ctx.authorization));
    accountId = caller?.accountId;
  }
  if (accountId === undefined) throw new AppError('UNAUTHORIZED', 'Send a valid API key as "Authorization: Bearer <key>"');
  return next({ ctx: { ...ctx, accountId } });
});

export function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}
