import { CreateTagBodySchema, TagListSchema, TagRefSchema, TagSchema, UpdateTagBodySchema } from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { z } from 'zod';
import { pathParam } from '../path-param.ts';
import { authedProcedure } from '../trpc.ts';

const tags = ['Tags'];
const tagRef = z.strictObject({ id: TagRefSchema });

export const tagsRouter = {
  create: authedProcedure
    .meta({
      openapi: { method: 'POST', path: '/tags', tags, summary: 'Create a tag', protect: true, successDescription: 'The new tag' },
      successStatus: 201,
    })
    .input(CreateTagBodySchema)
    .output(TagSchema)
    .mutation(({ ctx, input }) => ctx.services.tags.create(ctx.accountId, input)),

  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/tags', tags, summary: 'List all tags, newest first', protect: true } })
    .input(z.strictObject({}))
    .output(TagListSchema)
    .query(({ ctx }) => ctx.services.tags.list(ctx.accountId)),

  update: authedProcedure
    .meta({ openapi: { method: 'PATCH', path: '/tags/{id}', tags, summary: 'Rename or recolour a tag', protect: true } })
    .input(UpdateTagBodySchema.extend(tagRef.shape))
    .output(TagSchema)
    .mutation(({ ctx, input: { id, ...body } }) => ctx.services.tags.update(ctx.accountId, pathParam(ctx, 'tag', id), body)),

  delete: authedProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/tags/{id}', tags, summary: 'Delete a tag', protect: true, successDescription: 'Deleted' },
      successStatus: 204,
    })
    .input(tagRef)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.tags.delete(ctx.accountId, pathParam(ctx, 'tag', input.id))),
} satisfies TRPCRouterRecord;
