import { defineEntity, p } from '@mikro-orm/core';

/**
 * A secret of the server, made once by the first instance that needs it and read by every other:
 * e.g. the key that signs the cookie of an unlocked password-protected link (docs/redirects.md).
 */
export const ServerSecret = defineEntity({
  name: 'ServerSecret',
  tableName: 'server_secret',
  properties: {
    name: p.text().primary(),
    value: p.text(),
    created_at: p.datetime().defaultRaw('now()'),
  },
});
