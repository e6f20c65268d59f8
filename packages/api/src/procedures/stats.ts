import { GroupStatsSchema, LinkStatsQuerySchema, LinkStatsSchema, StatsQuerySchema, TagStatsQuerySchema } from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { pathParam } from './path-param.ts';
import { authedProcedure } from './trpc.ts';

const tags = ['Statistics'];
const description =
  'Buckets follow `interval` (`tz` midnights for days, UTC hours for hours); the range is rounded out to whole buckets. ' +
  'Breakdowns and top links count whole UTC days. Unique visitors are counted once per link and UTC day. See docs/statistics.md.';

export const statsRouter = {
  link: authedProcedure({
    openapi: {
      method: 'GET',
      path: '/links/{id}/stats',
      tags,
      summary: 'Click statistics of a link (lnk_ id or ext_ external id)',
      description,
      protect: true,
    },
    success: 200,
    role: 'viewer',
    scope: 'analytics.read',
    errors: ['LINK_NOT_FOUND', 'VALIDATION_ERROR'],
  })
    .input(LinkStatsQuerySchema)
    .output(LinkStatsSchema)
    .query(({ ctx, input: { id, ...query } }) => ctx.services.stats.link(ctx.accountId, pathParam('link', id), query)),

  tag: authedProcedure({
    openapi: {
      method: 'GET',
      path: '/tags/{id}/stats',
      tags,
      summary: 'Click statistics of the live links carrying a tag',
      description,
      protect: true,
    },
    success: 200,
    role: 'viewer',
    scope: 'analytics.read',
    errors: ['TAG_NOT_FOUND', 'VALIDATION_ERROR'],
  })
    .input(TagStatsQuerySchema)
    .output(GroupStatsSchema)
    .query(({ ctx, input: { id, ...query } }) => ctx.services.stats.tag(ctx.accountId, pathParam('tag', id), query)),

  account: authedProcedure({
    openapi: {
      method: 'GET',
      path: '/stats',
      tags,
      summary: 'Click statistics of the whole account (deleted links included in the totals)',
      description,
      protect: true,
    },
    success: 200,
    role: 'viewer',
    scope: 'analytics.read',
    errors: ['VALIDATION_ERROR'],
  })
    .input(StatsQuerySchema)
    .output(GroupStatsSchema)
    .query(({ ctx, input }) => ctx.services.stats.account(ctx.accountId, input)),
} satisfies TRPCRouterRecord;
