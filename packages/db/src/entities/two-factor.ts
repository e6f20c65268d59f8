import { defineEntity, p } from '@mikro-orm/core';
import { AppUser } from './app-user.ts';

/** A person's two-factor sign-in (Migration20261127262000_two_factor): on once `enabled_at` is set. */
export const TwoFactor = defineEntity({
  name: 'TwoFactor',
  tableName: 'two_factor',
  properties: {
    user: () => p.oneToOne(AppUser).fieldName('user_id').columnType('text').deleteRule('cascade').primary().owner(),
    /** Base32 TOTP secret: a shared key, kept readable, never answered by the API after enrolment. */
    secret: p.text(),
    enabled_at: p.datetime().nullable(),
    /** The TOTP time step of the last code used; a code of it or earlier is refused. */
    last_used_step: p.integer().nullable(),
    /** The SHA-256 (hex) of each unused recovery code, separated by spaces. */
    recovery_code_hashes: p.text().default(''),
    created_at: p.datetime().defaultRaw('now()'),
  },
});

/** The second step of a sign-in whose password passed (Migration20261127262000_two_factor). */
export const PendingSignIn = defineEntity({
  name: 'PendingSignIn',
  tableName: 'pending_sign_in',
  properties: {
    id: p.text().primary(),
    token_hash: p.text().unique('pending_sign_in_token_hash_key'),
    user: () => p.manyToOne(AppUser).fieldName('user_id').columnType('text').deleteRule('cascade'),
    created_at: p.datetime().defaultRaw('now()'),
    expires_at: p.datetime(),
    failed_codes: p.integer().default(0),
    ended_at: p.datetime().nullable(),
  },
});
