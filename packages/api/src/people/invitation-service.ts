import { randomBytes } from 'node:crypto';
import type { CreatedInvitation, InvitationOffer, InvitationView, Me } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import type { Caller } from '../accounts/caller.ts';
import { type Db, inTransaction, reader } from '../database/database.ts';
import { AppError, validationError } from '../errors.ts';
import { Changes } from '../events/change-log.ts';
import { recordChange, recordChanges } from '../events/record-change.ts';
import { checkedEmail } from './emails.ts';
import { invitationEmail } from './invitation-email.ts';
import { hasExpired, hashOneTimeToken, invitationExpiresAt, isOneTimeTokenShaped, newOneTimeToken } from './invitation-token.ts';
import type { Mailer } from './mailer.ts';
import { actingAsPerson, addMember } from './member-service.ts';
import { aRole, type Role, roleAtLeast } from './roles.ts';
import type { WebExchange } from './sign-in-attempts.ts';
import type { SignInService } from './sign-in-service.ts';
import type { UserService } from './user-service.ts';

/** The dashboard page that accepts an invitation; the token goes in the fragment, which no request or `Referer` carries. */
export function invitationUrl(dashboardUrl: string, token: string): string {
  return `${dashboardUrl}/invitation#${token}`;
}

export interface InvitationSettings {
  /** The dashboard's public address, such as https://links.example.com/app (PUBLIC_URL + /app). */
  dashboardUrl: string;
  /** Mails the link too (SMTP_URL); without one the inviter hands the link over. */
  mailer?: Mailer | undefined;
  /** Whether a person has two-factor sign-in on: they accept signed in, never with a password alone. */
  secondFactorOn?: (userId: string) => Promise<boolean>;
  /** Where each invitation made, revoked or accepted is recorded, in its transaction (events/change-log.ts). */
  changes?: Changes;
}

/**
 * The key under which failed invitation lookups are counted, per client address: a guesser of
 * tokens is slowed like a guesser of passwords, and nobody else's acceptance is (docs/security.md).
 */
const guessesFrom = (address: string) => `invitation-token@${address}`;

type InvitationRow = {
  id: string;
  account_id: string;
  email: string;
  role: string;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  workspace: string;
  invited_by: string | null;
};

/**
 * Invitations to a workspace (docs/accounts.md, "Invitations"): by email, with a role no higher than
 * the inviter's, made by admins and owners; single-use, good for 7 days, revocable. Only the
 * SHA-256 of a link's secret is stored (invitation-token.ts).
 */
export class InvitationService {
  readonly #orm: Orm;
  readonly #users: UserService;
  readonly #signIn: SignInService;
  readonly #settings: InvitationSettings;
  readonly #changes: Changes;

  constructor(orm: Orm, users: UserService, signIn: SignInService, settings: InvitationSettings) {
    this.#orm = orm;
    this.#users = users;
    this.#signIn = signIn;
    this.#settings = settings;
    this.#changes = settings.changes ?? new Changes();
  }

  /** Whether links are mailed as well as shown (SMTP_URL is set). */
  get mails(): boolean {
    return this.#settings.mailer !== undefined;
  }

  /**
   * Invites `email` to the caller's workspace as `role`. An earlier pending invitation of the same
   * address there is revoked, so one link at a time works for a person. The link is answered (to
   * hand over) and, with SMTP_URL, mailed; a mail that fails leaves the invitation standing.
   */
  async create(caller: Caller, email: string, role: Role): Promise<CreatedInvitation> {
    const address = checkedEmail(email);
    if (!roleAtLeast(caller.role, role)) {
      throw new AppError('FORBIDDEN', `${capitalised(aRole(caller.role))} cannot invite ${aRole(role)}: never above your own role`, 'role');
    }
    const { token, hash } = newOneTimeToken();
    const id = `inv_${randomBytes(12).toString('base64url')}`;
    const expiresAt = invitationExpiresAt();
    const { workspace, invitation } = await inTransaction(this.#orm, async (db) => {
      const member = await db
        .selectFrom('membership')
        .innerJoin('app_user', 'app_user.id', 'membership.user_id')
        .select('app_user.email')
        .where('membership.account_id', '=', caller.accountId)
        .where(sql<string>`lower(app_user.email)`, '=', address.toLowerCase())
        .executeTakeFirst();
      if (member) throw new AppError('ALREADY_MEMBER', `${member.email} is a member of this workspace already`, 'email');
      const replaced = await db
        .updateTable('invitation')
        .set({ revoked_at: new Date() })
        .where('account_id', '=', caller.accountId)
        .where(sql<string>`lower(email)`, '=', address.toLowerCase())
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        // One that had expired was no longer pending: its revocation changes nothing anyone sees.
        .returning(['id', sql<boolean>`expires_at > now()`.as('pending')])
        .execute();
      const created = await db
        .insertInto('invitation')
        .values({
          id,
          account_id: caller.accountId,
          email: address,
          role,
          token_hash: hash,
          invited_by_user_id: caller.user?.id ?? null,
          expires_at: expiresAt,
        })
        .returning('created_at')
        .executeTakeFirstOrThrow();
      const invitation: InvitationView = {
        id,
        email: address,
        role,
        invited_by: caller.user?.email ?? null,
        created_at: created.created_at.getTime(),
        expires_at: expiresAt.getTime(),
      };
      const revoked = await invitationViews(
        db,
        replaced.filter((row) => row.pending).map((row) => row.id),
      );
      await recordChanges(this.#changes, db, caller.accountId, [
        ...revoked.map((view) => ({ type: 'invitation.revoked', data: view })),
        { type: 'invitation.created', data: invitation },
      ]);
      const account = await db.selectFrom('account').select('name').where('id', '=', caller.accountId).executeTakeFirstOrThrow();
      return { workspace: account.name, invitation };
    });
    const url = invitationUrl(this.#settings.dashboardUrl, token);
    const mailed = await this.#mail(address, url, expiresAt, role, workspace, caller);
    return { invitation, url, ...mailed };
  }

  /** The workspace's pending invitations (not accepted, revoked or expired), newest first. */
  async listPending(accountId: string): Promise<InvitationView[]> {
    const rows = await invitationViewQuery(reader(this.#orm))
      .where('invitation.account_id', '=', accountId)
      .where('invitation.accepted_at', 'is', null)
      .where('invitation.revoked_at', 'is', null)
      .where('invitation.expires_at', '>', new Date())
      .orderBy('invitation.created_at', 'desc')
      .orderBy('invitation.id')
      .execute();
    return rows.map(toInvitationView);
  }

  /**
   * Revokes a pending invitation of the caller's workspace: its link stops working at once. One
   * whose role is above the caller's is not theirs to revoke.
   */
  async revoke(caller: Caller, id: string): Promise<void> {
    await inTransaction(this.#orm, async (db) => {
      const row = await db
        .selectFrom('invitation')
        .select(['role'])
        .where('id', '=', id)
        .where('account_id', '=', caller.accountId)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw new AppError('NOT_FOUND', 'No such pending invitation in this workspace');
      if (!roleAtLeast(caller.role, row.role as Role)) {
        throw new AppError('FORBIDDEN', `${capitalised(aRole(caller.role))} cannot revoke an invitation to ${aRole(row.role as Role)}`);
      }
      const [invitation] = await invitationViews(db, [id]);
      await db.updateTable('invitation').set({ revoked_at: new Date() }).where('id', '=', id).execute();
      if (invitation) await recordChange(this.#changes, db, caller.accountId, 'invitation.revoked', invitation);
    });
  }

  /** What an invitation offers, for its page; its errors say why it cannot be accepted. */
  async describe(web: WebExchange | undefined, token: string): Promise<InvitationOffer> {
    const row = await this.#live(web, token, reader(this.#orm));
    const existing = await this.#users.find(row.email);
    return {
      workspace: row.workspace,
      email: row.email,
      role: row.role as Role,
      invited_by: row.invited_by,
      expires_at: row.expires_at.getTime(),
      existing_user: existing?.has_password ?? false,
    };
  }

  /**
   * Accepts an invitation and signs its person in to the workspace:
   * - signed in as the invited email: they join;
   * - a person with that email who is not signed in: their current password, checked like a
   *   sign-in (same limits, same answer for a wrong one);
   * - nobody with that email yet (or one without a password): `password` becomes theirs, under
   *   the password rules.
   * The link works once: the claim is a write conditional on the invitation still being pending,
   * in the transaction that adds the membership, so two acceptances at once cannot both pass.
   */
  async accept(web: WebExchange, previous: Caller | null, token: string, password: string | undefined): Promise<Me> {
    const offer = await this.#live(web, token, reader(this.#orm));
    const signedIn = previous?.session ? previous.user : null;
    if (signedIn && signedIn.email.toLowerCase() !== offer.email.toLowerCase()) {
      throw new AppError(
        'FORBIDDEN',
        `This invitation is for ${offer.email}, and you are signed in as ${signedIn.email}: sign out, then open the link again`,
      );
    }
    const existing = await this.#users.find(offer.email);
    let joining: string | undefined = signedIn?.id;
    if (!joining && existing?.has_password) {
      if (!password) throw validationError('password', `Enter the password of ${existing.email} to accept`);
      await web.signInAttempts.admit(existing.email, web.address);
      const user = await this.#users.verifyCredentials(existing.email, password);
      if (!user) {
        await web.signInAttempts.failed(existing.email, web.address);
        throw new AppError('INVALID_CREDENTIALS');
      }
      if (await this.#settings.secondFactorOn?.(user.id)) {
        throw new AppError('FORBIDDEN', 'You have two-factor sign-in on: sign in first, then open the invitation link again');
      }
      joining = user.id;
    }
    if (!joining && password === undefined) throw validationError('password', 'Choose a password to create your account');

    const userId = await inTransaction(this.#orm, async (db) => {
      // The claim comes first: a second acceptance at the same moment waits on this row, then finds
      // it taken and is refused, before it creates or changes anyone.
      const claimed = await db
        .updateTable('invitation')
        .set({ accepted_at: new Date() })
        .where('id', '=', offer.id)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', new Date())
        .returning(['account_id', 'email', 'role'])
        .executeTakeFirst();
      if (!claimed) throw await this.#whyNotLive(db, offer.id);
      let id = joining;
      if (!id) {
        const person = await this.#users.find(claimed.email);
        if (person) {
          await this.#users.setPassword(person.id, password ?? '', undefined, db);
          id = person.id;
        } else {
          id = (await this.#users.create(claimed.email, password, db)).id;
        }
      }
      await db.updateTable('invitation').set({ accepted_by_user_id: id }).where('id', '=', offer.id).execute();
      const [invitation] = await invitationViews(db, [offer.id]);
      // Recorded as the person who accepts (no caller stands for them yet), from where they accept.
      await actingAsPerson({ id, email: claimed.email }, web.address, async () => {
        if (invitation) await recordChange(this.#changes, db, claimed.account_id, 'invitation.accepted', invitation);
        // Someone who is a member already keeps the role they have: an invitation never changes it
        // (and no member is recorded as added).
        await addMember(this.#changes, db, claimed.account_id, id, claimed.role as Role);
      });
      return id;
    });
    return this.#signIn.startSessionFor(web, previous, userId, offer.account_id);
  }

  /**
   * The invitation a token opens, or why not. An unknown token is counted against the client's
   * address (guessing), and answers INVITATION_NOT_FOUND; the holder of a real one learns whether
   * it was accepted, revoked or has expired.
   */
  async #live(web: WebExchange | undefined, token: string, db: Db): Promise<InvitationRow> {
    if (web) await web.signInAttempts.admit(guessesFrom(web.address), web.address);
    const query = db
      .selectFrom('invitation')
      .innerJoin('account', 'account.id', 'invitation.account_id')
      .leftJoin('app_user', 'app_user.id', 'invitation.invited_by_user_id')
      .select([
        'invitation.id',
        'invitation.account_id',
        'invitation.email',
        'invitation.role',
        'invitation.expires_at',
        'invitation.accepted_at',
        'invitation.revoked_at',
        'account.name as workspace',
        'app_user.email as invited_by',
      ])
      .where('invitation.token_hash', '=', hashOneTimeToken(token));
    const row = isOneTimeTokenShaped(token) ? await query.executeTakeFirst() : undefined;
    if (!row) {
      if (web) await web.signInAttempts.failed(guessesFrom(web.address), web.address);
      throw new AppError('INVITATION_NOT_FOUND');
    }
    const refusal = whyNotLive(row);
    if (refusal) throw refusal;
    return row;
  }

  /** Why the invitation `id` could not be claimed (someone else just did, it was revoked, or it ran out). */
  async #whyNotLive(db: Db, id: string): Promise<AppError> {
    const row = await db
      .selectFrom('invitation')
      .select(['accepted_at', 'revoked_at', 'expires_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    return (row && whyNotLive(row)) ?? new AppError('INVITATION_NOT_FOUND');
  }

  async #mail(
    to: string,
    url: string,
    expiresAt: Date,
    role: Role,
    workspace: string,
    caller: Caller,
  ): Promise<Pick<CreatedInvitation, 'email' | 'email_error'>> {
    const mailer = this.#settings.mailer;
    if (!mailer) return { email: 'not_configured', email_error: null };
    const inviterEmail = caller.user?.email ?? 'the operator';
    try {
      await mailer.send({
        to,
        ...invitationEmail({ workspaceName: workspace, inviterName: inviterEmail, inviterEmail, role, acceptUrl: url, expiresAt }),
      });
      return { email: 'sent', email_error: null };
    } catch (error) {
      return { email: 'failed', email_error: (error as Error).message };
    }
  }
}

/** Invitations as the API shows them (never their token, nor its hash). */
function invitationViewQuery(db: Db) {
  return db
    .selectFrom('invitation')
    .leftJoin('app_user', 'app_user.id', 'invitation.invited_by_user_id')
    .select([
      'invitation.id',
      'invitation.email',
      'invitation.role',
      'invitation.created_at',
      'invitation.expires_at',
      'app_user.email as invited_by',
    ]);
}

function toInvitationView(row: {
  id: string;
  email: string;
  role: string;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
}): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    invited_by: row.invited_by,
    created_at: row.created_at.getTime(),
    expires_at: row.expires_at.getTime(),
  };
}

/** The invitations `ids` as the API shows them, read in `db` (for the change log). */
async function invitationViews(db: Db, ids: readonly string[]): Promise<InvitationView[]> {
  if (ids.length === 0) return [];
  const rows = await invitationViewQuery(db).where('invitation.id', 'in', ids).orderBy('invitation.id').execute();
  return rows.map(toInvitationView);
}

/** The error of an invitation that can no longer be accepted, or undefined for a live one. */
function whyNotLive(row: { accepted_at: Date | null; revoked_at: Date | null; expires_at: Date }): AppError | undefined {
  if (row.accepted_at) return new AppError('INVITATION_ACCEPTED');
  if (row.revoked_at) return new AppError('INVITATION_REVOKED');
  if (hasExpired(row.expires_at)) return new AppError('INVITATION_EXPIRED');
  return undefined;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
