import {
  CreateLinkBodySchema,
  LinkPageSchema,
  LinkRefSchema,
  LinkSchema,
  ListLinksQuerySchema,
  UpdateLinkBodySchema,
  UpsertedLinkSchema,
} from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { z } from 'zod';
import { CREATE_ERRORS, DELETE_ERRORS, UPDATE_ERRORS } from './link-errors.ts';
import { linksBulkRouter } from './links-bulk.ts';
import { linksExportRouter } from './links-export.ts';
import { linksImportRouter } from './links-import.ts';
import { linksQrRouter } from './links-qr.ts';
import { pathParam } from './path-param.ts';
import { mayCreateTags } from './tag-creation.ts';
import { authedProcedure } from './trpc.ts';

const tags = ['Links'];
const linkRef = z.strictObject({ id: LinkRefSchema });

export const linksRouter = {
  // First: REST picks the first procedure whose path matches, and `/links/{id}` matches `/links/bulk`.
  ...linksBulkRouter,
  ...linksQrRouter,

  create: authedProcedure({
    openapi: { method: 'POST', path: '/links', tags, summary: 'Create a link', protect: true, successDescription: 'The new link' },
    success: 201,
    role: 'member',
    scope: 'links.write',
    errors: CREATE_ERRORS,
  })
    .input(CreateLinkBodySchema)
    .output(LinkSchema)
    .mutation(({ ctx, input }) => ctx.services.links.create(ctx.accountId, input, mayCreateTags(ctx))),

  list: authedProcedure({
    openapi: {
      method: 'GET',
      path: '/links',
      tags,
      summary: 'List links: newest first by default; search, filter by tag, sort',
      protect: true,
    },
    success: 200,
    role: 'viewer',
    scope: 'links.read',
    errors: ['VALIDATION_ERROR'],
  })
    .input(ListLinksQuerySchema)
    .output(LinkPageSchema)
    .query(({ ctx, input }) => ctx.services.links.list(ctx.accountId, input)),

  get: authedProcedure({
    openapi: { method: 'GET', path: '/links/{id}', tags, summary: 'Get a link by lnk_ id or ext_ external id', protect: true },
    success: 200,
    role: 'viewer',
    scope: 'links.read',
    errors: ['LINK_NOT_FOUND'],
  })
    .input(linkRef)
    .output(LinkSchema)
    .query(({ ctx, input }) => ctx.services.links.get(ctx.accountId, pathParam('link', input.id))),

  update: authedProcedure({
    openapi: { method: 'PATCH', path: '/links/{id}', tags, summary: 'Update a link (only the fields sent change)', protect: true },
    success: 200,
    role: 'member',
    scope: 'links.write',
    errors: UPDATE_ERRORS,
  })
    .input(UpdateLinkBodySchema.extend(linkRef.shape))
    .output(LinkSchema)
    .mutation(({ ctx, input: { id, ...body } }) =>
      ctx.services.links.update(ctx.accountId, pathParam('link', id), body, mayCreateTags(ctx)),
    ),

  delete: authedProcedure({
    openapi: { method: 'DELETE', path: '/links/{id}', tags, summary: 'Delete a link', protect: true, successDescription: 'Deleted' },
    success: 204,
    role: 'member',
    scope: 'links.write',
    errors: DELETE_ERRORS,
  })
    .input(linkRef)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.links.delete(ctx.accountId, pathParam('link', input.id))),

  upsert: authedProcedure({
    openapi: {
      method: 'POST',
      path: '/links/upsert',
      tags,
      summary: 'Create a link, or return the live link with the same final destination',
      description: '201 with `created: true` when a link was created; 200 with `created: false` when an existing link matched.',
      protect: true,
    },
    success: 'createdOrFound',
    role: 'member',
    scope: 'links.write',
    errors: CREATE_ERRORS,
  })
    .input(CreateLinkBodySchema)
    .output(UpsertedLinkSchema)
    .mutation(({ ctx, input }) => ctx.services.links.upsert(ctx.accountId, input, mayCreateTags(ctx))),

  ...linksExportRouter,
  ...linksImportRouter,
} satisfies TRPCRouterRecord;
