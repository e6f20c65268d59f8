import { CreateTagBodySchema, TagListSchema, TagRefSchema, TagSchema, UpdateTagBodySchema } from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { z } from 'zod';
import { pathParam } from './path-param.ts';
import { authedProcedure } from './trpc.ts';

const tags = ['Tags'];
const tagRef = z.strictObject({ id: TagRefSchema });

export const tagsRouter = {
  create: authedProcedure({
    openapi: { method: 'POST', path: '/tags', tags, summary: 'Create a tag', protect: true, successDescription: 'The new tag' },
    success: 201,
    role: 'member',
    scope: 'tags.write',
    errors: ['PLAN_LIMIT_REACHED', 'TAG_NAME_TAKEN', 'VALIDATION_ERROR'],
  })
    .input(CreateTagBodySchema)
    .output(TagSchema)
    .mutation(({ ctx, input }) => ctx.services.tags.create(ctx.accountId, input)),

  list: authedProcedure({
    openapi: { method: 'GET', path: '/tags', tags, summary: 'List all tags, newest first', protect: true },
    success: 200,
    role: 'viewer',
    scope: 'tags.read',
    errors: [],
  })
    .input(z.strictObject({}))
    .output(TagListSchema)
    .query(({ ctx }) => ctx.services.tags.list(ctx.accountId)),

  update: authedProcedure({
    openapi: { method: 'PATCH', path: '/tags/{id}', tags, summary: 'Rename or recolour a tag', protect: true },
    success: 200,
    role: 'member',
    scope: 'tags.write',
    errors: ['TAG_NOT_FOUND', 'TAG_NAME_TAKEN', 'VALIDATION_ERROR'],
  })
    .input(UpdateTagBodySchema.extend(tagRef.shape))
    .output(TagSchema)
    .mutation(({ ctx, input: { id, ...body } }) => ctx.services.tags.update(ctx.accountId, pathParam('tag', id), body)),

  delete: authedProcedure({
    openapi: { method: 'DELETE', path: '/tags/{id}', tags, summary: 'Delete a tag', protect: true, successDescription: 'Deleted' },
    success: 204,
    role: 'member',
    scope: 'tags.write',
    errors: ['TAG_NOT_FOUND'],
  })
    .input(tagRef)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.tags.delete(ctx.accountId, pathParam('tag', input.id))),
} satisfies TRPCRouterRecord;
