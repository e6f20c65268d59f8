import scalar from '@scalar/fastify-api-reference';
import { appRouter } from '@shortlinks/api';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../openapi-document.ts';
import { REST_PREFIX } from './rest.ts';

/** The OpenAPI document at /api/v1/openapi.json and an interactive reference at /docs (assets served locally). */
export async function openApiPlugin(app: FastifyInstance, { baseUrl }: { baseUrl: string }) {
  const document = buildOpenApiDocument(appRouter, `${baseUrl}${REST_PREFIX}`);
  const body = JSON.stringify(document);
  app.get(`${REST_PREFIX}/openapi.json`, async (_request, reply) => reply.type('application/json').send(body));
  await app.register(scalar, {
    routePrefix: '/docs',
    configuration: { url: `${REST_PREFIX}/openapi.json`, title: 'Shortlinks API' },
  });
}
