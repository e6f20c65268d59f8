import type { Orm } from '@shortlinks/db';
import type { FastifyInstance } from 'fastify';

/**
 * How long `/readyz` waits for the database's answer before saying it is not ready. Shorter than
 * a statement's bound (DATABASE_QUERY_TIMEOUT_MS): a load balancer's check has its own timeout,
 * often a few seconds, and a check that times out tells it less than a 503 does.
 */
export const READY_TIMEOUT_MS = 2000;

/** GET /healthz: the process answers. GET /readyz: and the database answers too, within READY_TIMEOUT_MS. */
export async function healthPlugin(app: FastifyInstance, { orm }: { orm: Orm }) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (await databaseAnswers(orm)) return { status: 'ok', database: 'up' };
    return reply.code(503).send({ status: 'unavailable', database: 'down' });
  });
}

/** Whether `select 1` comes back within READY_TIMEOUT_MS; a late answer is not waited for (the statement's own bound ends it). */
async function databaseAnswers(orm: Orm): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
  });
  const answered = orm.em
    .fork()
    .getConnection()
    .execute('select 1')
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}
