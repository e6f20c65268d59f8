import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Orm } from '@shortlinks/db';
import { plainReader } from '../database/database.ts';

/**
 * The cookie that lets a visitor who gave a link's password through again for 24 hours (issue
 * #30, docs/redirects.md). Its value is `{expires}.{signature}`: an HMAC-SHA256 of the link's
 * id, the expiry and a fingerprint of the password's hash, so it opens that link only, only until
 * it expires, and no longer once the password is changed or removed. The browser is told to send
 * it to `/{slug}` only; the signature is what makes it worthless anywhere else.
 *
 * The key is derived (HKDF) from a server secret kept in the database (`server_secret`), made by
 * the first instance that needs it: every instance signs and checks alike, and a restart keeps
 * every visitor's cookie valid. Deleting the row (and restarting) invalidates every cookie.
 */
export const UNLOCK_COOKIE = 'shortlinks_unlock';
export const UNLOCK_SECONDS = 24 * 60 * 60;
const SECRET_NAME = 'link_unlock_cookie';

export class LinkUnlocks {
  readonly #orm: Orm;
  #key: Promise<Buffer> | undefined;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  /** The cookie's value for a visitor who gave the password at `now`. */
  async cookieValue(linkId: string, passwordHash: string, now: number): Promise<string> {
    const expires = now + UNLOCK_SECONDS * 1000;
    return `${expires}.${await this.#signature(linkId, passwordHash, expires)}`;
  }

  /** Whether the cookie's value unlocks this link (with this password) at `now`. */
  async unlocks(value: string | undefined, linkId: string, passwordHash: string, now: number): Promise<boolean> {
    if (value === undefined || value.length > 200) return false;
    const match = /^(\d{13,15})\.([A-Za-z0-9_-]{43})$/.exec(value);
    if (!match) return false;
    const expires = Number(match[1]);
    if (!(expires > now)) return false;
    const expected = Buffer.from(await this.#signature(linkId, passwordHash, expires));
    const sent = Buffer.from(match[2] ?? '');
    return sent.length === expected.length && timingSafeEqual(sent, expected);
  }

  async #signature(linkId: string, passwordHash: string, expires: number): Promise<string> {
    const fingerprint = createHash('sha256').update(passwordHash).digest('base64url');
    return createHmac('sha256', await this.#keyOnce())
      .update(`${linkId}\n${expires}\n${fingerprint}`)
      .digest('base64url');
  }

  #keyOnce(): Promise<Buffer> {
    this.#key ??= this.#loadKey().catch((error: unknown) => {
      // Asked again by the next visit: the database may be back.
      this.#key = undefined;
      throw error;
    });
    return this.#key;
  }

  async #loadKey(): Promise<Buffer> {
    const db = plainReader(this.#orm);
    await db
      .insertInto('server_secret')
      .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    const { value } = await db.selectFrom('server_secret').select('value').where('name', '=', SECRET_NAME).executeTakeFirstOrThrow();
    return Buffer.from(hkdfSync('sha256', Buffer.from(value, 'base64url'), Buffer.alloc(0), 'shortlinks link unlock cookie v1', 32));
  }
}

/** The value of the cookie named `name` in a Cookie header; undefined when absent. */
export function cookieNamed(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';', 100)) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}
