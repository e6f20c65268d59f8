import {
  CreateWebhookBodySchema,
  ListWebhookDeliveriesQuerySchema,
  UpdateWebhookBodySchema,
  WebhookDeliveryDetailSchema,
  WebhookDeliveryPageSchema,
  WebhookDeliverySchema,
  WebhookListSchema,
  WebhookRefSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { z } from 'zod';
import { pathParam } from './path-param.ts';
import { authedProcedure } from './trpc.ts';

const tags = ['Webhooks'];
const webhookRef = z.strictObject({ id: WebhookRefSchema });
const deliveryRef = z.strictObject({ id: WebhookRefSchema, delivery_id: WebhookRefSchema });

/** Webhooks (issue #29, docs/webhooks.md): the endpoints, their secrets, their delivery log. */
export const webhooksRouter = {
  create: authedProcedure({
    openapi: {
      method: 'POST',
      path: '/webhooks',
      tags,
      summary: 'Add a webhook',
      protect: true,
      successDescription: 'The webhook, with its secret',
    },
    role: 'admin',
    scope: 'webhooks.write',
    success: 201,
    errors: ['VALIDATION_ERROR'],
  })
    .input(CreateWebhookBodySchema)
    .output(WebhookWithSecretSchema)
    .mutation(({ ctx, input }) => ctx.services.webhooks.create(ctx.accountId, input)),

  list: authedProcedure({
    openapi: { method: 'GET', path: '/webhooks', tags, summary: 'List the webhooks, newest first', protect: true },
    role: 'admin',
    scope: 'webhooks.read',
    success: 200,
    errors: [],
  })
    .input(z.strictObject({}))
    .output(WebhookListSchema)
    .query(({ ctx }) => ctx.services.webhooks.list(ctx.accountId)),

  get: authedProcedure({
    openapi: { method: 'GET', path: '/webhooks/{id}', tags, summary: 'Get a webhook', protect: true },
    role: 'admin',
    scope: 'webhooks.read',
    success: 200,
    errors: ['WEBHOOK_NOT_FOUND'],
  })
    .input(webhookRef)
    .output(WebhookSchema)
    .query(({ ctx, input }) => ctx.services.webhooks.get(ctx.accountId, pathParam('webhook', input.id))),

  update: authedProcedure({
    openapi: { method: 'PATCH', path: '/webhooks/{id}', tags, summary: 'Change a webhook, or enable or disable it', protect: true },
    role: 'admin',
    scope: 'webhooks.write',
    success: 200,
    errors: ['WEBHOOK_NOT_FOUND', 'VALIDATION_ERROR'],
  })
    .input(UpdateWebhookBodySchema.extend(webhookRef.shape))
    .output(WebhookSchema)
    .mutation(({ ctx, input: { id, ...body } }) => ctx.services.webhooks.update(ctx.accountId, pathParam('webhook', id), body)),

  delete: authedProcedure({
    openapi: { method: 'DELETE', path: '/webhooks/{id}', tags, summary: 'Delete a webhook', protect: true, successDescription: 'Deleted' },
    role: 'admin',
    scope: 'webhooks.write',
    success: 204,
    errors: ['WEBHOOK_NOT_FOUND'],
  })
    .input(webhookRef)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.webhooks.delete(ctx.accountId, pathParam('webhook', input.id))),

  rotateSecret: authedProcedure({
    openapi: {
      method: 'POST',
      path: '/webhooks/{id}/rotate-secret',
      tags,
      summary: 'A new secret; the previous one signs too for 24 hours',
      protect: true,
    },
    role: 'admin',
    scope: 'webhooks.write',
    success: 200,
    errors: ['WEBHOOK_NOT_FOUND'],
  })
    .input(webhookRef)
    .output(WebhookWithSecretSchema)
    .mutation(({ ctx, input }) => ctx.services.webhooks.rotateSecret(ctx.accountId, pathParam('webhook', input.id))),

  deliveries: authedProcedure({
    openapi: { method: 'GET', path: '/webhooks/{id}/deliveries', tags, summary: 'The delivery log, newest first', protect: true },
    role: 'admin',
    scope: 'webhooks.read',
    success: 200,
    errors: ['WEBHOOK_NOT_FOUND', 'VALIDATION_ERROR'],
  })
    .input(ListWebhookDeliveriesQuerySchema.extend(webhookRef.shape))
    .output(WebhookDeliveryPageSchema)
    .query(({ ctx, input: { id, ...query } }) => ctx.services.webhooks.deliveries(ctx.accountId, pathParam('webhook', id), query)),

  delivery: authedProcedure({
    openapi: {
      method: 'GET',
      path: '/webhooks/{id}/deliveries/{delivery_id}',
      tags,
      summary: 'One delivery: the body sent, the first 4 KiB of the last answer, each attempt',
      protect: true,
    },
    role: 'admin',
    scope: 'webhooks.read',
    success: 200,
    errors: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND'],
  })
    .input(deliveryRef)
    .output(WebhookDeliveryDetailSchema)
    .query(({ ctx, input }) =>
      ctx.services.webhooks.delivery(ctx.accountId, pathParam('webhook', input.id), pathParam('delivery', input.delivery_id)),
    ),

  retryDelivery: authedProcedure({
    openapi: {
      method: 'POST',
      path: '/webhooks/{id}/deliveries/{delivery_id}/retry',
      tags,
      summary: 'Send a delivery again now',
      protect: true,
    },
    role: 'admin',
    scope: 'webhooks.write',
    success: 200,
    errors: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND'],
  })
    .input(deliveryRef)
    .output(WebhookDeliverySchema)
    .mutation(({ ctx, input }) =>
      ctx.services.webhooks.retry(ctx.accountId, pathParam('webhook', input.id), pathParam('delivery', input.delivery_id)),
    ),

  test: authedProcedure({
    openapi: { method: 'POST', path: '/webhooks/{id}/test', tags, summary: 'Send a webhook.test event', protect: true },
    role: 'admin',
    scope: 'webhooks.write',
    success: 201,
    errors: ['WEBHOOK_NOT_FOUND'],
  })
    .input(webhookRef)
    .output(WebhookDeliverySchema)
    .mutation(({ ctx, input }) => ctx.services.webhooks.test(ctx.accountId, pathParam('webhook', input.id))),
} satisfies TRPCRouterRecord;
