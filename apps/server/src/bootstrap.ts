import type { AccountView, Services } from '@shortlinks/api/services';

/**
 * On the first start with an empty database, creates a default account (plan "unlimited": the
 * operator owns the server) and its first API key, so a new user can call the API at once.
 */
export async function ensureFirstAccount(services: Services): Promise<{ account: AccountView; secret: string } | undefined> {
  if ((await services.accounts.count()) > 0) return undefined;
  const account = await services.accounts.create({ name: 'Default', plan: 'unlimited' });
  const { secret } = await services.apiKeys.create(account.id);
  return { account, secret };
}
