import type { ApiKeyView as KeyAnswer, Scope } from '@shortlinks/contract';
import { AppError } from '../errors.ts';
import { aRole, roleAtLeast } from '../people/roles.ts';
import { type ApiKeyService, type KeyOwnership, keyAnswer } from './api-key-service.ts';
import type { Caller } from './caller.ts';
import { scopeNotGrantable } from './key-scopes.ts';

export { keyAnswer } from './api-key-service.ts';

/**
 * The keys API (`POST/GET/DELETE /api/v1/keys`, docs/accounts.md "Keys and scopes"): people and
 * keys make keys within what they may do, and see and revoke the keys they may manage.
 */
export class KeyManagement {
  readonly #keys: ApiKeyService;

  constructor(keys: ApiKeyService) {
    this.#keys = keys;
  }

  /**
   * Makes a key acting for the caller's person (or, for an operator's key, for nobody: as owner),
   * with no scope the caller may not give: a key never gives a scope it lacks, a person never one
   * beyond their role (key-scopes.ts). Refused with 403 FORBIDDEN naming the scope.
   */
  async create(
    caller: Caller,
    body: { name: string; scopes: readonly Scope[]; expires_at?: number | null | undefined },
  ): Promise<KeyAnswer & { key: string }> {
    const refused = scopeNotGrantable(caller, body.scopes);
    if (refused !== undefined) throw new AppError('FORBIDDEN', refusal(caller, refused));
    const { key, secret } = await this.#keys.create(caller.accountId, {
      name: body.name,
      scopes: body.scopes,
      expiresAt: body.expires_at ?? null,
      createdByUserId: caller.user?.id ?? null,
    });
    return { ...keyAnswer(key), key: secret };
  }

  /** The live (not revoked) keys the caller may manage, oldest first; expired ones too, with their `expires_at`. */
  async list(caller: Caller): Promise<KeyAnswer[]> {
    const { accountId, madeBy } = ownership(caller);
    const keys = await this.#keys.list(accountId, madeBy === undefined ? { live: true } : { live: true, madeBy });
    return keys.map(keyAnswer);
  }

  /** Revokes a key the caller may manage, on every instance at once; KEY_NOT_FOUND for any other. */
  async revoke(caller: Caller, keyId: string): Promise<void> {
    if (!(await this.#keys.revoke(keyId, ownership(caller)))) throw new AppError('KEY_NOT_FOUND');
  }
}

/**
 * Which keys a caller manages: an owner or an admin (and an operator's key, which acts as owner)
 * every key of the workspace; a member or a viewer the keys they made themselves.
 */
function ownership(caller: Caller): KeyOwnership {
  if (roleAtLeast(caller.role, 'admin') || caller.user === null) return { accountId: caller.accountId };
  return { accountId: caller.accountId, madeBy: caller.user.id };
}

function refusal(caller: Caller, scope: Scope): string {
  if (caller.scopes !== null && !caller.scopes.some((held) => held === scope || held === scope.replace(/\.read$/, '.write'))) {
    return `This key lacks the scope ${scope}`;
  }
  const who = aRole(caller.role);
  return `${who.charAt(0).toUpperCase()}${who.slice(1)} cannot give a key the scope ${scope}`;
}
