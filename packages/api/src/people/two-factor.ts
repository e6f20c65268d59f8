import { createHash, timingSafeEqual } from 'node:crypto';
import { customAlphabet } from 'nanoid';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/**
 * Two-factor sign-in: TOTP (RFC 6238, the 6 digits every authenticator app shows, SHA-1, 30 s) and
 * one-time recovery codes. Pure: the caller stores the secret, the last used time step and the
 * recovery codes' hashes (docs/security.md, "Two-factor (`two-factor.ts`)").
 */

/** The name an authenticator app shows above the code. */
export const TWO_FACTOR_ISSUER = 'Shortlinks';

const PERIOD_SECONDS = 30;

/**
 * ±1 step: a code from the previous or next 30 s is still taken, for a phone's clock a little off
 * and a code typed as it turned over. More would widen what a guesser or a shoulder-surfer can use.
 */
const TOLERANCE_SECONDS = PERIOD_SECONDS;

/** A new TOTP secret: 20 random bytes (160 bits, RFC 4226's recommendation), in Base32 as apps read it. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export interface TotpEnrolment {
  /** `otpauth://totp/Shortlinks:<email>?secret=…&issuer=Shortlinks…`, for apps that take a link. */
  uri: string;
  /** The URI as a QR code, an SVG document (inline it, or use the data URL). */
  qrCodeSvg: string;
  /** The same SVG as a `data:image/svg+xml;base64,…` URL for an `<img src>`. */
  qrCodeDataUrl: string;
}

/** What the security page shows to enrol an authenticator app: the URI and its QR code. */
export async function totpEnrolment(secret: string, email: string): Promise<TotpEnrolment> {
  const uri = generateURI({ issuer: TWO_FACTOR_ISSUER, label: email, secret, period: PERIOD_SECONDS });
  const qrCodeSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { uri, qrCodeSvg, qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(qrCodeSvg).toString('base64')}` };
}

export type TotpCheck = { valid: true; step: number } | { valid: false };

/**
 * Checks a code typed by the user. `lastUsedStep` is the time step of the last code this user signed
 * in with (null before the first): a code of that step or an earlier one is refused, so a code seen
 * over a shoulder or replayed from a log cannot be used again, even within its window. On success,
 * store the returned `step` as the new `lastUsedStep`, with a write conditional on the old value so two
 * requests racing with the same code cannot both win.
 */
export async function verifyTotpCode(input: {
  secret: string;
  code: string;
  lastUsedStep: number | null;
  /** Seconds since the epoch; now unless a test says otherwise. */
  now?: number;
}): Promise<TotpCheck> {
  const code = input.code.replace(/\s+/g, '');
  // otplib throws on a malformed token; a wrong format is simply a wrong code.
  if (!/^\d{6}$/.test(code)) return { valid: false };
  const epoch = input.now ?? Math.floor(Date.now() / 1000);
  const newestStep = Math.floor((epoch + TOLERANCE_SECONDS) / PERIOD_SECONDS);
  // otplib refuses an `afterTimeStep` beyond its window; every step in it is then already used.
  if (input.lastUsedStep !== null && input.lastUsedStep >= newestStep) return { valid: false };
  const result = await verify({
    secret: input.secret,
    token: code,
    epoch,
    period: PERIOD_SECONDS,
    epochTolerance: TOLERANCE_SECONDS,
    ...(input.lastUsedStep === null ? {} : { afterTimeStep: input.lastUsedStep }),
  });
  return result.valid && 'timeStep' in result ? { valid: true, step: result.timeStep } : { valid: false };
}

/** How many recovery codes a user gets at once (a new set replaces the old one). */
export const RECOVERY_CODE_COUNT = 10;

/**
 * Crockford's Base32 in lower case: no i, l, o or u, so a code copied from paper is read back right.
 * 16 characters of 32 = 80 random bits per code.
 */
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const recoveryBody = customAlphabet(RECOVERY_ALPHABET, 16);

export interface RecoveryCodes {
  /** Shown to the user once, as `xxxx-xxxx-xxxx-xxxx`; never stored. */
  codes: string[];
  /** What is stored: one SHA-256 (hex) per code, in the same order. */
  hashes: string[];
}

export function generateRecoveryCodes(): RecoveryCodes {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => recoveryBody().match(/.{4}/g)!.join('-'));
  return { codes, hashes: codes.map(hashRecoveryCode) };
}

/** A code as typed: case, spaces and hyphens ignored; i/l read as 1 and o as 0 (Crockford). */
function normalizeRecoveryCode(code: string): string {
  return code
    .toLowerCase()
    .replace(/[\s-]+/g, '')
    .replace(/[il]/g, '1')
    .replace(/o/g, '0');
}

/**
 * SHA-256, unsalted and fast: enough because a code holds 80 random bits, so a stolen hash cannot be
 * searched back to its code (2⁸⁰ guesses), unlike a password, which needs a slow salted hash (argon2id).
 */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}

/**
 * Uses a recovery code once. Answers the hash it matched and the hashes left, which the caller stores
 * in place of the old list (a write conditional on `matched` still being there, so a code raced twice
 * wins once), or null for a code that is not (or no longer) among them. Every stored hash is compared
 * in constant time and the loop does not stop at a match, so the answer's time tells nothing.
 */
export function consumeRecoveryCode(code: string, storedHashes: readonly string[]): { matched: string; remaining: string[] } | null {
  const typed = Buffer.from(hashRecoveryCode(code), 'hex');
  let matchedIndex = -1;
  storedHashes.forEach((stored, index) => {
    const candidate = Buffer.from(stored, 'hex');
    if (candidate.length === typed.length && timingSafeEqual(candidate, typed) && matchedIndex === -1) matchedIndex = index;
  });
  if (matchedIndex === -1) return null;
  return { matched: storedHashes[matchedIndex]!, remaining: storedHashes.filter((_, index) => index !== matchedIndex) };
}
