import type { Me } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import type { Caller } from '../accounts/caller.ts';
import { inTransaction } from '../database/database.ts';
import { actingAsPerson, type MemberService } from './member-service.ts';
import type { Role } from './roles.ts';
import type { WebExchange } from './sign-in-attempts.ts';
import type { SignInService } from './sign-in-service.ts';
import {
  decodePendingSignIn,
  encodePendingSignIn,
  SingleSignOn,
  type SingleSignOnIdentity,
  SingleSignOnRefused,
} from './single-sign-on.ts';
import { newUserId } from './user-service.ts';

/** The operator's single sign-on (OIDC_* settings: docs/accounts.md, "Single sign-on"). */
export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  allowedEmailDomains: readonly string[];
  /** The workspace new people join, and their role there. */
  workspaceId: string;
  role: Role;
  /** Tests and a local provider only: an http:// issuer on a loopback host. */
  allowInsecureLoopbackIssuer?: boolean;
}

/**
 * Signing in through the organisation's OpenID provider (the flow in single-sign-on.ts), with
 * people made just in time: a provider account is linked to a person by issuer and subject at its
 * first sign-in (to the person with its verified email, or a new one without a password), who joins
 * the operator's workspace with the operator's role when not a member yet. The provider is
 * discovered at the first sign-in, not at start: one that is down never stops the service.
 */
export class SsoService {
  readonly #orm: Orm;
  readonly #signIn: SignInService;
  readonly #settings: SsoSettings;
  /** Adds the people who join, each recorded as `member.added` (events/change-log.ts). */
  readonly #members: Pick<MemberService, 'add'>;
  readonly #discovered = new Map<string, Promise<SingleSignOn>>();

  constructor(orm: Orm, signIn: SignInService, settings: SsoSettings, members: Pick<MemberService, 'add'>) {
    this.#orm = orm;
    this.#signIn = signIn;
    this.#settings = settings;
    this.#members = members;
  }

  /** The provider's page to send the browser to, and the pending values for the cookie. */
  async start(redirectUri: string): Promise<{ authorizationUrl: string; cookie: string }> {
    const { authorizationUrl, pending } = await (await this.#client(redirectUri)).startSignIn();
    return { authorizationUrl, cookie: encodePendingSignIn(pending) };
  }

  /** Finishes the sign-in the cookie started: a session, as a password sign-in gives. */
  async finish(
    web: WebExchange,
    previous: Caller | null,
    redirectUri: string,
    callbackUrl: string,
    cookie: string | undefined,
  ): Promise<Me> {
    const pending = decodePendingSignIn(cookie);
    if (!pending) throw new SingleSignOnRefused('state_mismatch', 'The sign-in expired or was started elsewhere; start it again');
    const identity = await (await this.#client(redirectUri)).finishSignIn(callbackUrl, pending);
    const userId = await this.#person(identity, web.address);
    return this.#signIn.startSessionFor(web, previous, userId, this.#settings.workspaceId);
  }

  async #person(identity: SingleSignOnIdentity, address: string): Promise<string> {
    return inTransaction(this.#orm, async (db) => {
      const linked = await db
        .selectFrom('sso_identity')
        .select('user_id')
        .where('issuer', '=', identity.issuer)
        .where('subject', '=', identity.subject)
        .executeTakeFirst();
      let userId = linked?.user_id;
      if (!userId) {
        const existing = await db
          .selectFrom('app_user')
          .select('id')
          .where(sql<string>`lower(email)`, '=', identity.email.toLowerCase())
          .executeTakeFirst();
        userId = existing?.id;
        if (!userId) {
          userId = newUserId();
          await db
            .insertInto('app_user')
            .values({ id: userId, email: identity.email, password_hash: null, password_changed_at: null })
            .execute();
        }
        await db.insertInto('sso_identity').values({ issuer: identity.issuer, subject: identity.subject, user_id: userId }).execute();
      }
      // Just in time: the operator's workspace and role, unless they are a member there already.
      // Recorded as the person who joins (`member.added`), from where they signed in.
      const person = { id: userId, email: identity.email };
      await actingAsPerson(person, address, () => this.#members.add(this.#settings.workspaceId, person.id, this.#settings.role, db));
      return userId;
    });
  }

  #client(redirectUri: string): Promise<SingleSignOn> {
    let client = this.#discovered.get(redirectUri);
    if (!client) {
      const { workspaceId: _workspace, role: _role, ...settings } = this.#settings;
      client = SingleSignOn.discover({ ...settings, redirectUri });
      // A provider that could not be reached is asked again at the next sign-in.
      client.catch(() => this.#discovered.delete(redirectUri));
      this.#discovered.set(redirectUri, client);
    }
    return client;
  }
}
