import { CreateDomainBodySchema, DomainListSchema, DomainRefSchema, DomainSchema, UpdateDomainBodySchema } from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { z } from 'zod';
import { pathParam } from './path-param.ts';
import { authedProcedure } from './trpc.ts';

const tags = ['Domains'];
const domainRef = z.strictObject({ id: DomainRefSchema });

/** Branded domains (docs/domains.md). */
export const domainsRouter = {
  create: authedProcedure({
    openapi: {
      method: 'POST',
      path: '/domains',
      tags,
      summary: 'Add a branded domain',
      description: 'Answers the TXT record to set; the domain serves once verified (POST /domains/{id}/verify).',
      protect: true,
      successDescription: 'The new domain, not verified yet',
    },
    success: 201,
    role: 'admin',
    scope: 'domains.write',
    errors: ['DOMAIN_TAKEN', 'DOMAIN_LIMIT_REACHED', 'VALIDATION_ERROR'],
  })
    .input(CreateDomainBodySchema)
    .output(DomainSchema)
    .mutation(({ ctx, input }) => ctx.services.domains.create(ctx.accountId, input)),

  list: authedProcedure({
    openapi: { method: 'GET', path: '/domains', tags, summary: "List the workspace's domains, newest first", protect: true },
    success: 200,
    role: 'viewer',
    scope: 'domains.read',
    errors: [],
  })
    .input(z.strictObject({}))
    .output(DomainListSchema)
    .query(({ ctx }) => ctx.services.domains.list(ctx.accountId)),

  get: authedProcedure({
    openapi: { method: 'GET', path: '/domains/{id}', tags, summary: 'Get a domain', protect: true },
    success: 200,
    role: 'viewer',
    scope: 'domains.read',
    errors: ['DOMAIN_NOT_FOUND'],
  })
    .input(domainRef)
    .output(DomainSchema)
    .query(({ ctx, input }) => ctx.services.domains.get(ctx.accountId, pathParam('domain', input.id))),

  update: authedProcedure({
    openapi: {
      method: 'PATCH',
      path: '/domains/{id}',
      tags,
      summary: "Set a domain's root and not-found redirects, or make it the default",
      protect: true,
    },
    success: 200,
    role: 'admin',
    scope: 'domains.write',
    errors: ['DOMAIN_NOT_FOUND', 'VALIDATION_ERROR', 'REPUTATION_UNAVAILABLE'],
  })
    .input(UpdateDomainBodySchema.extend(domainRef.shape))
    .output(DomainSchema)
    .mutation(({ ctx, input: { id, ...body } }) => ctx.services.domains.update(ctx.accountId, pathParam('domain', id), body)),

  verify: authedProcedure({
    openapi: {
      method: 'POST',
      path: '/domains/{id}/verify',
      tags,
      summary: "Look the domain's TXT record up now",
      description: 'Answers the domain: `verified` true, or false with `verification.error` saying what was found instead.',
      protect: true,
    },
    success: 200,
    role: 'admin',
    scope: 'domains.write',
    errors: ['DOMAIN_NOT_FOUND', 'DOMAIN_TAKEN'],
  })
    .input(domainRef)
    .output(DomainSchema)
    .mutation(({ ctx, input }) => ctx.services.domains.verify(ctx.accountId, pathParam('domain', input.id))),

  delete: authedProcedure({
    openapi: { method: 'DELETE', path: '/domains/{id}', tags, summary: 'Delete a domain', protect: true, successDescription: 'Deleted' },
    success: 204,
    role: 'admin',
    scope: 'domains.write',
    errors: ['DOMAIN_NOT_FOUND', 'DOMAIN_HAS_LINKS'],
  })
    .input(domainRef)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.domains.delete(ctx.accountId, pathParam('domain', input.id))),
} satisfies TRPCRouterRecord;
