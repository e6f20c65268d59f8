import { type AccountView, passwordLinkUrl, type Services } from '@shortlinks/api/services';

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

/**
 * While nobody can sign in (no person exists: a new database, or one from before people), a new
 * one-time link that creates the owner of the oldest workspace, under `dashboardUrl`. Each start
 * prints a fresh one; each works once, for 7 days (docs/accounts.md, "The first start").
 */
export async function firstOwnerLink(services: Services, dashboardUrl: string): Promise<{ url: string; workspace: string } | undefined> {
  if ((await services.users.count()) > 0) return undefined;
  const [workspace] = await services.accounts.list();
  if (!workspace) return undefined;
  const token = await services.passwordLinks.issueSetup(workspace.id);
  return { url: passwordLinkUrl(dashboardUrl, 'setup', token), workspace: workspace.name };
}
