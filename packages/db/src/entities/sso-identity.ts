import { defineEntity, p } from '@mikro-orm/core';
import { AppUser } from './app-user.ts';

/** A provider's account linked to a person (Migration20261127263000_single_sign_on). */
export const SsoIdentity = defineEntity({
  name: 'SsoIdentity',
  tableName: 'sso_identity',
  properties: {
    issuer: p.text().primary(),
    subject: p.text().primary(),
    user: () => p.manyToOne(AppUser).fieldName('user_id').columnType('text').deleteRule('cascade').index('sso_identity_user_id_idx'),
    created_at: p.datetime().defaultRaw('now()'),
  },
});
