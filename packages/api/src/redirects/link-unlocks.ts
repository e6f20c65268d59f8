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
  /** The key once read: checked without a promise from then on. */
  #loaded: Buffer | undefined;
  /**
   * Cookie values whose signature was found valid, with what it was valid for: a visitor coming
   * back with the cookie costs a lookup, not an HMAC (docs/performance.md). Only a value that
   * passed the HMAC is kept, so a guess can never be found here; it is found valid again only for
   * the same link and password hash, and only until its signed expiry. Bounded: forgotten all at
   * once when full, and with the process.
   */
  readonly #verified = new Map<string, { linkId: string; passwordHash: string; expires: number }>();

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
    const key = this.#loaded ?? (await this.#keyOnce());
    return this.#checks(key, value, linkId, passwordHash, now);
  }

  /**
   * {@link unlocks} without waiting: undefined while the key has not been read from the database
   * yet (the first visit that needs it reads it), else the answer. What the fast path asks
   * (docs/redirects.md): a visit with a valid cookie costs one HMAC and no promise.
   */
  unlocksAtOnce(value: string | undefined, linkId: string, passwordHash: string, now: number): boolean | undefined {
    const key = this.#loaded;
    return key === undefined ? undefined : this.#checks(key, value, linkId, passwordHash, now);
  }

  #checks(key: Buffer, value: string | undefined, linkId: string, passwordHash: string, now: number): boolean {
    if (value === undefined || value.length > 200) return false;
    // A cookie already found valid for this link and password: its expiry is all that is left to check.
    const known = this.#verified.get(value);
    if (known !== undefined && known.linkId === linkId && known.passwordHash === passwordHash) return known.expires > now;
    const match = COOKIE_VALUE.exec(value);
    if (!match) return false;
    const expires = Number(match[1]);
    if (!(expires > now)) return false;
    // Compared as text: base64url's last character has spare bits, so decoding would accept variants.
    const expected = Buffer.from(signature(key, linkId, passwordHash, expires).toString('base64url'));
    const sent = Buffer.from(match[2] ?? '');
    // Constant time: how much of a forged signature was right is never told by when it is refused.
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return false;
    if (this.#verified.size >= VERIFIED_KEPT) this.#verified.clear();
    this.#verified.set(value, { linkId, passwordHash, expires });
    return true;
  }

  async #signature(linkId: string, passwordHash: string, expires: number): Promise<string> {
    return signature(this.#loaded ?? (await this.#keyOnce()), linkId, passwordHash, expires).toString('base64url');
  }

  #keyOnce(): Promise<Buffer> {
    this.#key ??= this.#loadKey().then(
      (key) => {
        this.#loaded = key;
        return key;
      },
      (error: unknown) => {
        // Asked again by the next visit: the database may be back.
        this.#key = undefined;
        throw error;
      },
    );
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

/** Valid cookie values remembered at most (a few MB). */
const VERIFIED_KEPT = 10_000;

/** `{expires}.{signature}`: 13 to 15 digits of Unix ms, and an HMAC-SHA256 in base64url. */
const COOKIE_VALUE = /^(\d{13,15})\.([A-Za-z0-9_-]{43})$/;

/**
 * A password hash's fingerprint, remembered for the hashes seen last: a cached link's visits with
 * its cookie pay the HMAC and not a SHA-256 more. Bounded: forgotten all at once when full.
 */
const fingerprints = new Map<string, string>();
const FINGERPRINTS_KEPT = 10_000;

function fingerprintOf(passwordHash: string): string {
  let fingerprint = fingerprints.get(passwordHash);
  if (fingerprint === undefined) {
    fingerprint = createHash('sha256').update(passwordHash).digest('base64url');
    if (fingerprints.size >= FINGERPRINTS_KEPT) fingerprints.clear();
    fingerprints.set(passwordHash, fingerprint);
  }
  return fingerprint;
}

/** The cookie's signature: HMAC-SHA256 of the link, the expiry and the password's fingerprint. */
function signature(key: Buffer, linkId: string, passwordHash: string, expires: number): Buffer {
  return createHmac('sha256', key)
    .update(`${linkId}\n${expires}\n${fingerprintOf(passwordHash)}`)
    .digest();
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
