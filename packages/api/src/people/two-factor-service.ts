import { randomBytes } from 'node:crypto';
import { announceCallerChange, type Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import type { Caller } from '../accounts/caller.ts';
import { type Db, inTransaction, reader, storable } from '../database/database.ts';
import { AppError, validationError } from '../errors.ts';
import { Changes } from '../events/change-log.ts';
import { recordChange } from '../events/record-change.ts';
import { hashOneTimeToken, newOneTimeToken } from './invitation-token.ts';
import { KeyTwoFactorRule } from './key-two-factor-rule.ts';
import { workspaceRecord } from './member-service.ts';
import { passwordMatches, verifyAgainstDummy } from './passwords.ts';
import type { WebExchange } from './sign-in-attempts.ts';
import { consumeRecoveryCode, generateRecoveryCodes, newTotpSecret, totpEnrolment, verifyTotpCode } from './two-factor.ts';

/** How long the second step of a sign-in may wait for its code after the password passed. */
export const PENDING_SIGN_IN_SECONDS = 5 * 60;

/** Wrong codes one pending sign-in takes before it ends (the password must be given again). */
export const PENDING_SIGN_IN_MAX_FAILED_CODES = 5;

/** What proves the person is at the keyboard for a sensitive change: a code (TOTP or recovery) or the password. */
export interface TwoFactorProof {
  code?: string | undefined;
  password?: string | undefined;
}

export interface TwoFactorStatus {
  enabled: boolean;
  recovery_codes_left: number;
}

export interface TwoFactorEnrolment {
  secret: string;
  otpauth_uri: string;
  qr_code: string;
}

const splitHashes = (text: string) => text.split(' ').filter(Boolean);

/**
 * Two-factor sign-in with TOTP and one-time recovery codes (docs/accounts.md, "Two-factor
 * sign-in"; the primitives in two-factor.ts). A person enrols (a secret shown with its QR code,
 * confirmed by a first code, then recovery codes shown once), and from then on a sign-in whose
 * password passed has a second step: no session exists until a code passes.
 */
export class TwoFactorService {
  readonly #orm: Orm;
  readonly #changed: (accountId: string) => void;
  readonly #keyRule: KeyTwoFactorRule;
  /** Where the workspace's requirement changing is recorded (`workspace.updated`), in its transaction. */
  readonly #changes: Changes;

  constructor(orm: Orm, changed: (accountId: string) => void, changes = new Changes()) {
    this.#orm = orm;
    this.#changed = changed;
    this.#keyRule = new KeyTwoFactorRule(orm);
    this.#changes = changes;
  }

  async status(userId: string): Promise<TwoFactorStatus> {
    const row = await reader(this.#orm)
      .selectFrom('two_factor')
      .select(['enabled_at', 'recovery_code_hashes'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const enabled = Boolean(row?.enabled_at);
    return { enabled, recovery_codes_left: enabled && row ? splitHashes(row.recovery_code_hashes).length : 0 };
  }

  async isEnabled(userId: string, db: Db = reader(this.#orm)): Promise<boolean> {
    const row = await db.selectFrom('two_factor').select('enabled_at').where('user_id', '=', userId).executeTakeFirst();
    return Boolean(row?.enabled_at);
  }

  /** A new secret for the person's authenticator app; two-factor is on only once a code from it is confirmed. */
  async startEnrolment(userId: string, email: string): Promise<TwoFactorEnrolment> {
    if (await this.isEnabled(userId)) throw new AppError('VALIDATION_ERROR', 'Two-factor sign-in is on already; turn it off first');
    const secret = newTotpSecret();
    await reader(this.#orm)
      .insertInto('two_factor')
      .values({ user_id: userId, secret, enabled_at: null, last_used_step: null, recovery_code_hashes: '' })
      .onConflict((c) => c.column('user_id').doUpdateSet({ secret, last_used_step: null, recovery_code_hashes: '', enabled_at: null }))
      .execute();
    const enrolment = await totpEnrolment(secret, email);
    return { secret, otpauth_uri: enrolment.uri, qr_code: enrolment.qrCodeDataUrl };
  }

  /** Turns two-factor on with a first code from the app; answers the recovery codes, shown this once. */
  async confirmEnrolment(userId: string, code: string): Promise<{ recovery_codes: string[] }> {
    const row = await reader(this.#orm)
      .selectFrom('two_factor')
      .select(['secret', 'enabled_at', 'last_used_step'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row || row.enabled_at) throw new AppError('VALIDATION_ERROR', 'Start the enrolment first', 'code');
    const check = await verifyTotpCode({ secret: row.secret, code, lastUsedStep: row.last_used_step });
    if (!check.valid) throw validationError('code', 'That code is not right; type the 6 digits your app shows now');
    const recovery = generateRecoveryCodes();
    const updated = await reader(this.#orm)
      .updateTable('two_factor')
      .set({ enabled_at: new Date(), last_used_step: check.step, recovery_code_hashes: recovery.hashes.join(' ') })
      .where('user_id', '=', userId)
      .where('enabled_at', 'is', null)
      .where('secret', '=', row.secret)
      .returning('user_id')
      .executeTakeFirst();
    if (!updated) throw validationError('code', 'The enrolment changed meanwhile; start again');
    await this.#announce(userId);
    return { recovery_codes: recovery.codes };
  }

  /** Turns two-factor off, proven by a code (TOTP or recovery) or the password. */
  async disable(userId: string, proof: TwoFactorProof): Promise<void> {
    if (!(await this.isEnabled(userId))) throw new AppError('VALIDATION_ERROR', 'Two-factor sign-in is off already');
    await this.#prove(userId, proof);
    await reader(this.#orm).deleteFrom('two_factor').where('user_id', '=', userId).execute();
    await this.#announce(userId);
  }

  /**
   * A new set of recovery codes, proven by a code (TOTP or recovery) or the password: the old ones
   * stop working with this write, and the new ones are answered this once (only their hashes kept).
   */
  async newRecoveryCodes(userId: string, proof: TwoFactorProof): Promise<{ recovery_codes: string[] }> {
    if (!(await this.isEnabled(userId))) throw new AppError('VALIDATION_ERROR', 'Two-factor sign-in is off');
    await this.#prove(userId, proof);
    const recovery = generateRecoveryCodes();
    const updated = await reader(this.#orm)
      .updateTable('two_factor')
      .set({ recovery_code_hashes: recovery.hashes.join(' ') })
      .where('user_id', '=', userId)
      .where('enabled_at', 'is not', null)
      .returning('user_id')
      .executeTakeFirst();
    if (!updated) throw new AppError('VALIDATION_ERROR', 'Two-factor sign-in is off');
    return { recovery_codes: recovery.codes };
  }

  /** The person is at the keyboard: a code (TOTP or recovery, used up) or their password; a 422 on the field that failed otherwise. */
  async #prove(userId: string, proof: TwoFactorProof): Promise<void> {
    if (proof.code) {
      if (!(await this.verifyCode(userId, proof.code))) throw validationError('code', 'That code is not right');
    } else if (proof.password !== undefined) {
      const user = await reader(this.#orm).selectFrom('app_user').select('password_hash').where('id', '=', userId).executeTakeFirst();
      const ok = user?.password_hash ? await passwordMatches(user.password_hash, proof.password) : await verifyAgainstDummy(proof.password);
      if (!ok) throw validationError('password', 'The password is wrong');
    } else {
      throw validationError('code', 'Enter a code from your app, a recovery code, or your password');
    }
  }

  /**
   * Whether `code` is the person's TOTP code of now (not used before) or one of their unused
   * recovery codes, using it up. Both writes are conditional on the value read, so a code raced by
   * two requests passes once.
   */
  async verifyCode(userId: string, code: string): Promise<boolean> {
    if (code.length > 64 || !storable(code)) return false;
    const row = await reader(this.#orm)
      .selectFrom('two_factor')
      .select(['secret', 'last_used_step', 'recovery_code_hashes', 'enabled_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row?.enabled_at) return false;
    const totp = await verifyTotpCode({ secret: row.secret, code, lastUsedStep: row.last_used_step });
    if (totp.valid) {
      const taken = await reader(this.#orm)
        .updateTable('two_factor')
        .set({ last_used_step: totp.step })
        .where('user_id', '=', userId)
        .where(sql<boolean>`last_used_step is not distinct from ${row.last_used_step}`)
        .returning('user_id')
        .executeTakeFirst();
      return taken !== undefined;
    }
    const recovery = consumeRecoveryCode(code, splitHashes(row.recovery_code_hashes));
    if (!recovery) return false;
    const taken = await reader(this.#orm)
      .updateTable('two_factor')
      .set({ recovery_code_hashes: recovery.remaining.join(' ') })
      .where('user_id', '=', userId)
      .where('recovery_code_hashes', '=', row.recovery_code_hashes)
      .returning('user_id')
      .executeTakeFirst();
    return taken !== undefined;
  }

  /**
   * The second step of a sign-in whose password passed, for a person with two-factor on: a pending
   * sign-in (its secret in a short-lived HttpOnly cookie, its hash here), and 401
   * TWO_FACTOR_REQUIRED. No session exists yet.
   */
  async requireSecondStep(web: WebExchange, userId: string): Promise<void> {
    if (!(await this.isEnabled(userId))) return;
    if (!web.pendingSignIn) throw new AppError('FORBIDDEN', 'Sign in through the dashboard');
    const { token, hash } = newOneTimeToken();
    await reader(this.#orm)
      .insertInto('pending_sign_in')
      .values({
        id: `psi_${randomBytes(12).toString('base64url')}`,
        token_hash: hash,
        user_id: userId,
        expires_at: new Date(Date.now() + PENDING_SIGN_IN_SECONDS * 1000),
      })
      .execute();
    web.pendingSignIn.set(token, PENDING_SIGN_IN_SECONDS);
    throw new AppError('TWO_FACTOR_REQUIRED');
  }

  /**
   * Finishes a pending sign-in with a code: the person's id once it passes (the caller starts the
   * session). Wrong codes count against the sign-in limits (per email and address) and against the
   * pending sign-in, which ends after {@link PENDING_SIGN_IN_MAX_FAILED_CODES}; an expired or ended
   * one is TWO_FACTOR_EXPIRED (sign in again).
   */
  async finishSecondStep(web: WebExchange, code: string): Promise<string> {
    const token = web.pendingSignIn?.read();
    const pending = token && token.length <= 200 && storable(token) ? await this.#pending(token) : undefined;
    if (!pending) {
      web.pendingSignIn?.clear();
      throw new AppError('TWO_FACTOR_EXPIRED');
    }
    await web.signInAttempts.admit(pending.email, web.address);
    if (!(await this.verifyCode(pending.user_id, code))) {
      await web.signInAttempts.failed(pending.email, web.address);
      const counted = await reader(this.#orm)
        .updateTable('pending_sign_in')
        .set({ failed_codes: sql<number>`failed_codes + 1` })
        .where('id', '=', pending.id)
        .returning('failed_codes')
        .executeTakeFirst();
      if ((counted?.failed_codes ?? PENDING_SIGN_IN_MAX_FAILED_CODES) >= PENDING_SIGN_IN_MAX_FAILED_CODES) {
        await this.#end(pending.id);
        web.pendingSignIn?.clear();
        throw new AppError('TWO_FACTOR_EXPIRED', 'Too many wrong codes: sign in again with your password');
      }
      throw validationError('code', 'That code is not right; type the 6 digits your app shows now, or a recovery code');
    }
    // Used once: the same cookie cannot start a second session.
    if (!(await this.#end(pending.id))) throw new AppError('TWO_FACTOR_EXPIRED');
    web.pendingSignIn?.clear();
    return pending.user_id;
  }

  /** An API key's caller under the workspace's requirement: its maker must have two-factor on (key-two-factor-rule.ts). */
  forKey(caller: Caller): Promise<Caller> {
    return this.#keyRule.apply(caller);
  }

  /** Whether the owner requires two-factor in the workspace. */
  async required(accountId: string): Promise<boolean> {
    const row = await reader(this.#orm).selectFrom('account').select('require_two_factor').where('id', '=', accountId).executeTakeFirst();
    return row?.require_two_factor ?? false;
  }

  /** The owner requires (or stops requiring) two-factor of everyone working in the workspace; announced at once. */
  async setRequired(accountId: string, required: boolean): Promise<void> {
    await inTransaction(this.#orm, async (db) => {
      const before = await workspaceRecord(db, accountId);
      await db.updateTable('account').set({ require_two_factor: required }).where('id', '=', accountId).execute();
      await announceCallerChange(db, accountId);
      await recordChange(this.#changes, db, accountId, 'workspace.updated', { ...before, require_two_factor: required }, before);
    });
    this.#changed(accountId);
  }

  async #pending(token: string) {
    return reader(this.#orm)
      .selectFrom('pending_sign_in')
      .innerJoin('app_user', 'app_user.id', 'pending_sign_in.user_id')
      .select(['pending_sign_in.id', 'pending_sign_in.user_id', 'app_user.email'])
      .where('pending_sign_in.token_hash', '=', hashOneTimeToken(token))
      .where('pending_sign_in.ended_at', 'is', null)
      .where('pending_sign_in.expires_at', '>', new Date())
      .where('pending_sign_in.failed_codes', '<', PENDING_SIGN_IN_MAX_FAILED_CODES)
      .executeTakeFirst();
  }

  async #end(id: string): Promise<boolean> {
    const ended = await reader(this.#orm)
      .updateTable('pending_sign_in')
      .set({ ended_at: new Date() })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return ended !== undefined;
  }

  /** A person's two-factor changed: their sessions' callers are looked up again everywhere (the workspace rule reads it). */
  async #announce(userId: string): Promise<void> {
    const rows = await reader(this.#orm).selectFrom('membership').select('account_id').where('user_id', '=', userId).execute();
    for (const { account_id } of rows) {
      await announceCallerChange(reader(this.#orm), account_id);
      this.#changed(account_id);
    }
  }
}
