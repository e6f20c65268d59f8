import { toAppError } from '@shortlinks/api/errors';
import { isRole, passwordLinkUrl, ROLES, type Role, type Services } from '@shortlinks/api/services';
import { UsageError } from './usage-error.ts';

export interface UserFlags {
  email?: string | undefined;
  account?: string | undefined;
  role?: string | undefined;
  json: boolean;
}

/**
 * `user create|list|reset-password`: the operator's hand on people (docs/accounts.md). No password
 * is ever typed on a command line (it would stay in the shell's history): create and
 * reset-password print a one-time link where the person sets theirs.
 */
export async function userCommand(services: Services, verb: string | undefined, rest: string[], flags: UserFlags, dashboardUrl: string) {
  const print = (json: unknown, text: string) => console.log(flags.json ? JSON.stringify(json, null, 2) : text);
  switch (verb) {
    case 'create': {
      if (!flags.email) throw new UsageError('user create needs --email EMAIL');
      if (!flags.account) throw new UsageError('user create needs --account ACCOUNT_ID (the workspace)');
      const role = flags.role ?? 'member';
      if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join('|')}`);
      const workspace = await services.accounts.get(flags.account);
      if (!workspace) throw new UsageError(`No account ${flags.account}.`);
      const user = (await services.users.find(flags.email)) ?? (await created(services, flags.email));
      await services.members.add(workspace.id, user.id, role as Role);
      const url = passwordLinkUrl(dashboardUrl, 'password', await services.passwordLinks.issuePassword(user.id));
      print(
        { user, workspace: { id: workspace.id, name: workspace.name, role }, password_link: url },
        `${user.email} (${user.id}) is ${role} of ${workspace.name} (${workspace.id}).\n` +
          `Send them this one-time link to set their password (valid 24 hours):\n\n  ${url}\n`,
      );
      return 0;
    }
    case 'list': {
      const users = await services.users.list();
      print(
        { users },
        users
          .map(
            (user) =>
              `${user.id}  ${user.email}${user.has_password ? '' : '  (no password yet)'}  ` +
              (user.workspaces.map((workspace) => `${workspace.name}=${workspace.role}`).join(', ') || 'no workspace'),
          )
          .join('\n') || 'No people yet.',
      );
      return 0;
    }
    case 'reset-password': {
      const email = rest[0] ?? flags.email;
      if (!email) throw new UsageError('user reset-password needs EMAIL');
      const user = await services.users.find(email);
      if (!user) throw new UsageError(`No person with the email ${email}.`);
      const url = passwordLinkUrl(dashboardUrl, 'password', await services.passwordLinks.issuePassword(user.id));
      print(
        { user, password_link: url },
        `One-time link for ${user.email} to set a new password (valid 24 hours; their sessions end when it is used):\n\n  ${url}\n`,
      );
      return 0;
    }
    default:
      throw new UsageError(`Unknown command "user ${verb ?? ''}".`);
  }
}

async function created(services: Services, email: string) {
  try {
    return await services.users.create(email, undefined);
  } catch (error) {
    const failure = toAppError(error);
    if (failure.code === 'VALIDATION_ERROR') throw new UsageError(`--email: ${failure.message}`);
    throw error;
  }
}
