import type { Orm } from '@shortlinks/db';
import type { FastifyInstance } from 'fastify';

/** GET /healthz: the process answers. GET /readyz: and the database answers too. */
export async function healthPlugin(app: FastifyInstance, { orm }: { orm: Orm }) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await orm.em.fork().getConnection().execute('select 1');
      return { status: 'ok', database: 'up' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: 'down' });
    }
  });
}
