import { createHash } from 'node:crypto';
import { CONNECT_CLIENTS, CONNECT_TTL_MS, type ConnectClaim, type ConnectClient } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { inTransaction, reader } from '../database/database.ts';
import { AppError } from '../errors.ts';
import { actingAsPerson } from '../people/member-service.ts';
import type { ApiKeyService } from './api-key-service.ts';
import type { Caller } from './caller.ts';
import { SCOPE_LEAST_ROLE, scopeNotGrantable } from './key-scopes.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** What is stored of a challenge: its SHA-256 (hex). A leaked table names no challenge to claim with. */
const stored = (challenge: string) => sha256(challenge).toString('hex');

/**
 * Connect (docs/accounts.md, "Connect"; docs/security.md): a client gets a key approved by a
 * signed-in person, with no key in any URL and no message between origins, like OAuth's PKCE.
 * The client keeps a random verifier and shows the dashboard only its SHA-256 (the challenge);
 * the person's answer is stored by the challenge's hash; the client claims it with the verifier,
 * once, within 10 minutes, and the key is made then, so no secret is kept meanwhile.
 */
export class ConnectService {
  readonly #orm: Orm;
  readonly #keys: ApiKeyService;

  constructor(orm: Orm, keys: ApiKeyService) {
    this.#orm = orm;
    this.#keys = keys;
  }

  /**
   * The signed-in person approves (or declines) the client's request in their current workspace.
   * Approving needs every scope the client asks to be within their role; each challenge is
   * answered once (409 CONNECT_ALREADY_ANSWERED).
   */
  async answer(caller: Caller, challenge: string, client: ConnectClient, approved: boolean): Promise<void> {
    const user = caller.user;
    if (!user || !caller.session) throw new AppError('FORBIDDEN', 'Only a person signed in to the dashboard can connect a client');
    const asked = CONNECT_CLIENTS[client];
    if (approved) {
      const refused = scopeNotGrantable(caller, asked.scopes);
      if (refused !== undefined) {
        throw new AppError(
          'FORBIDDEN',
          `Your role (${caller.role}) cannot give the ${asked.name.toLowerCase()} the scope ${refused}; it needs ${SCOPE_LEAST_ROLE[refused]} or above`,
        );
      }
    }
    const inserted = await reader(this.#orm)
      .insertInto('connect_request')
      .values({
        challenge_hash: stored(challenge),
        client,
        name: asked.name,
        scopes: [...asked.scopes],
        approved,
        account_id: caller.accountId,
        user_id: user.id,
        expires_at: new Date(Date.now() + CONNECT_TTL_MS),
      })
      .onConflict((conflict) => conflict.column('challenge_hash').doNothing())
      .returning('challenge_hash')
      .executeTakeFirst();
    if (!inserted) throw new AppError('CONNECT_ALREADY_ANSWERED');
  }

  /**
   * The client's claim, by the verifier: `pending` until the person answers, the key once (made
   * now, acting for the approver with the asked scopes), then `expired`. A verifier that is not
   * the challenge's answers `pending`, as an unanswered one does: it learns nothing. The key made
   * is the approver's in the audit log (`key.created`), from `address`, where the client claims it.
   */
  async claim(verifier: string, address: string | null = null): Promise<ConnectClaim> {
    const hash = stored(base64url(sha256(verifier)));
    return inTransaction(this.#orm, async (db) => {
      const row = await db
        .selectFrom('connect_request')
        .innerJoin('account', 'account.id', 'connect_request.account_id')
        .innerJoin('app_user', 'app_user.id', 'connect_request.user_id')
        .select([
          'connect_request.approved',
          'connect_request.expires_at',
          'connect_request.claimed_at',
          'connect_request.account_id',
          'connect_request.user_id',
          'connect_request.name',
          'connect_request.scopes',
          'account.name as workspace',
          'app_user.email as approver',
        ])
        .where('connect_request.challenge_hash', '=', hash)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return { status: 'pending' };
      if (row.claimed_at !== null || row.expires_at.getTime() <= Date.now()) return { status: 'expired' };
      await db.updateTable('connect_request').set({ claimed_at: new Date() }).where('challenge_hash', '=', hash).execute();
      if (!row.approved) return { status: 'declined' };
      // The approver must still be a member: their key acts with their role there.
      const member = await db
        .selectFrom('membership')
        .select('role')
        .where('user_id', '=', row.user_id)
        .where('account_id', '=', row.account_id)
        .executeTakeFirst();
      if (!member) return { status: 'expired' };
      const { key, secret } = await actingAsPerson({ id: row.user_id, email: row.approver }, address, () =>
        this.#keys.create(row.account_id, { name: row.name, scopes: row.scopes as never, createdByUserId: row.user_id }, db),
      );
      return { status: 'approved', key: secret, id: key.id, name: key.name, scopes: key.scopes, workspace: row.workspace };
    });
  }

  /** Forgets answers past their time (called with the other periodic clean-ups, or by tests). */
  async forgetExpired(): Promise<number> {
    const result = await reader(this.#orm).deleteFrom('connect_request').where('expires_at', '<', new Date()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
