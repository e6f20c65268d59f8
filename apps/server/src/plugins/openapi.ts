import { appRouter } from '@shortlinks/api';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../openapi-document.ts';
import { docsPagePlugin } from './docs-page.ts';
import { REST_PREFIX } from './rest.ts';

/** The OpenAPI document at /api/v1/openapi.json and an interactive reference at /docs (docs-page.ts). */
export async function openApiPlugin(app: FastifyInstance, { baseUrl }: { baseUrl: string }) {
  const document = buildOpenApiDocument(appRouter, `${baseUrl}${REST_PREFIX}`);
  const body = JSON.stringify(document);
  app.get(`${REST_PREFIX}/openapi.json`, async (_request, reply) => reply.type('application/json').send(body));
  // A scope of its own: its headers are the page's, not the document's.
  await app.register(docsPagePlugin, { openApiUrl: `${REST_PREFIX}/openapi.json` });
}
