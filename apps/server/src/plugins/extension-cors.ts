import cors from '@fastify/cors';
import fp from 'fastify-plugin';

/**
 * Browser-extension pages (`chrome-extension://<id>`, `moz-extension://<uuid>`, Safari's
 * `safari-web-extension://`) may call the API across origins. The API authenticates with a
 * bearer key the caller must hold, never with cookies, so answering CORS for them exposes nothing
 * a page could use on its own; web origins still get no CORS headers. This is why the extension
 * needs no host permission for the server (docs/extension.md).
 */
export const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension|safari-web-extension):\/\/[A-Za-z0-9-]+$/;

export const extensionCorsPlugin = fp(async (app) => {
  await app.register(cors, {
    origin: EXTENSION_ORIGIN,
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type'],
    // Preflights are remembered for 10 minutes (Chromium caps the value at 2 hours).
    maxAge: 600,
    // An OPTIONS request that is no preflight (no Origin) is answered 204 like any other, not
    // with the plugin's plain-text 400.
    strictPreflight: false,
  });
});
