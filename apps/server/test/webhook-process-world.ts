import { createServices } from '@shortlinks/api/services';
import { createOrm, type Orm } from '@shortlinks/db';
import { createTestDatabase } from './harness.ts';
import { freePort } from './processes.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/** A fresh database with one account and its key, the env of a real server process on it, and a receiver. */
export interface WebhookProcessWorld {
  orm: Orm;
  key: string;
  env: Record<string, string>;
  base: string;
  receiver: WebhookReceiver;
  stop(): Promise<void>;
}

/**
 * What the tests that kill or stop the server's real process share (webhooks-durability,
 * webhooks-clicks): private targets allowed for the loopback receiver, and `settings` on top.
 */
export async function webhookProcessWorld(accountName: string, settings: Record<string, string>): Promise<WebhookProcessWorld> {
  const databaseUrl = await createTestDatabase();
  const orm = await createOrm({ databaseUrl, poolSize: 2 });
  const services = createServices({ orm, shortDomain: 'https://sho.rt' });
  const account = await services.accounts.create({ name: accountName, plan: 'unlimited' });
  const key = (await services.apiKeys.create(account.id)).secret;
  const port = await freePort();
  const env = { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...settings };
  const receiver = await new WebhookReceiver().start();
  return {
    orm,
    key,
    env,
    base: `http://127.0.0.1:${port}`,
    receiver,
    async stop() {
      await receiver.stop();
      await orm.close();
    },
  };
}
