import { defineEntity, p } from '@mikro-orm/core';

/**
 * A person who signs in to the dashboard (docs/accounts.md, "People"). The table is `app_user`
 * because `user` is a reserved word in PostgreSQL. The email is unique ignoring case (an index on
 * `lower(email)`, Migration20261127260000_people); the password is stored as an argon2id hash.
 */
export const AppUser = defineEntity({
  name: 'AppUser',
  tableName: 'app_user',
  properties: {
    id: p.text().primary(),
    email: p.text(),
    /** argon2id in PHC form; null until the person sets one through a one-time link. */
    password_hash: p.text().nullable(),
    created_at: p.datetime().defaultRaw('now()'),
    password_changed_at: p.datetime().nullable(),
  },
});
