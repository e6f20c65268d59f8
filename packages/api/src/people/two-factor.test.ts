import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import {
  consumeRecoveryCode,
  generateRecoveryCodes,
  hashRecoveryCode,
  newTotpSecret,
  RECOVERY_CODE_COUNT,
  TWO_FACTOR_ISSUER,
  totpEnrolment,
  verifyTotpCode,
} from './two-factor.ts';

const codeAt = (secret: string, epoch: number) => generate({ secret, epoch });
const now = () => Math.floor(Date.now() / 1000);

describe('two-factor: TOTP', () => {
  it('enrolment: an otpauth URI with the issuer and the email, and its QR code as SVG and data URL', async () => {
    const secret = newTotpSecret();
    const enrolment = await totpEnrolment(secret, 'ada@acme.com');
    const uri = new URL(enrolment.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/${TWO_FACTOR_ISSUER}:ada@acme.com`);
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe(TWO_FACTOR_ISSUER);
    expect(enrolment.qrCodeSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(Buffer.from(enrolment.qrCodeDataUrl.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toBe(enrolment.qrCodeSvg);
  });

  it('a secret has at least 128 bits and differs each time', () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/); // 20 bytes in Base32
    expect(newTotpSecret()).not.toBe(a);
  });

  it('a code computed by otplib for now verifies, and answers its time step', async () => {
    const secret = newTotpSecret();
    const epoch = now();
    const result = await verifyTotpCode({ secret, code: await codeAt(secret, epoch), lastUsedStep: null, now: epoch });
    expect(result).toEqual({ valid: true, step: Math.floor(epoch / 30) });
  });

  it('a code of the previous or next step still verifies (±1 step), with spaces as apps show it', async () => {
    const secret = newTotpSecret();
    const epoch = 1_800_000_015;
    const previous = await codeAt(secret, epoch - 30);
    const next = await codeAt(secret, epoch + 30);
    expect(await verifyTotpCode({ secret, code: previous, lastUsedStep: null, now: epoch })).toEqual({ valid: true, step: 59_999_999 });
    expect(await verifyTotpCode({ secret, code: `${next.slice(0, 3)} ${next.slice(3)}`, lastUsedStep: null, now: epoch })).toEqual({
      valid: true,
      step: 60_000_001,
    });
  });

  it('a stale code (two steps old) or a code of another secret does not verify', async () => {
    const secret = newTotpSecret();
    const epoch = 1_800_000_015;
    expect(await verifyTotpCode({ secret, code: await codeAt(secret, epoch - 60), lastUsedStep: null, now: epoch })).toEqual({
      valid: false,
    });
    expect(await verifyTotpCode({ secret, code: await codeAt(secret, epoch + 60), lastUsedStep: null, now: epoch })).toEqual({
      valid: false,
    });
    expect(await verifyTotpCode({ secret, code: await codeAt(newTotpSecret(), epoch), lastUsedStep: null, now: epoch })).toEqual({
      valid: false,
    });
  });

  it('a replay of the same step is refused, and so is any earlier step; a later step is taken', async () => {
    const secret = newTotpSecret();
    const epoch = 1_800_000_015;
    const code = await codeAt(secret, epoch);
    const first = await verifyTotpCode({ secret, code, lastUsedStep: null, now: epoch });
    expect(first.valid).toBe(true);
    const step = first.valid ? first.step : -1;
    // The same code again, at once and 20 s later (still inside its window): refused.
    expect(await verifyTotpCode({ secret, code, lastUsedStep: step, now: epoch })).toEqual({ valid: false });
    expect(await verifyTotpCode({ secret, code, lastUsedStep: step, now: epoch + 20 })).toEqual({ valid: false });
    // The previous step's code, still inside the window, is older than the one used: refused.
    expect(await verifyTotpCode({ secret, code: await codeAt(secret, epoch - 30), lastUsedStep: step, now: epoch })).toEqual({
      valid: false,
    });
    // The next step's code is new.
    expect(await verifyTotpCode({ secret, code: await codeAt(secret, epoch + 30), lastUsedStep: step, now: epoch + 30 })).toEqual({
      valid: true,
      step: step + 1,
    });
    // A last used step beyond the whole window (a clock set back) refuses rather than throws.
    expect(await verifyTotpCode({ secret, code, lastUsedStep: step + 5, now: epoch })).toEqual({ valid: false });
  });

  it('malformed codes are wrong codes, not errors', async () => {
    const secret = newTotpSecret();
    for (const code of ['', '12345', '1234567', 'abcdef', '12 34 5x', '１２３４５６']) {
      expect(await verifyTotpCode({ secret, code, lastUsedStep: null })).toEqual({ valid: false });
    }
  });
});

describe('two-factor: recovery codes', () => {
  it('ten readable codes of 80 random bits, stored only as SHA-256 hashes', () => {
    const { codes, hashes } = generateRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
    expect(hashes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const [index, hash] of hashes.entries()) {
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(hash).toBe(hashRecoveryCode(codes[index]!));
      expect(hash).not.toContain(codes[index]!.replaceAll('-', ''));
    }
  });

  it('a recovery code works once: the second use of it is refused', () => {
    const { codes, hashes } = generateRecoveryCodes();
    const first = consumeRecoveryCode(codes[3]!, hashes);
    expect(first).toEqual({ matched: hashes[3], remaining: hashes.filter((_, i) => i !== 3) });
    expect(consumeRecoveryCode(codes[3]!, first!.remaining)).toBeNull();
    // The others still work.
    expect(consumeRecoveryCode(codes[4]!, first!.remaining)?.remaining).toHaveLength(RECOVERY_CODE_COUNT - 2);
  });

  it('a code is read as people type it: upper case, spaces, no hyphens, i/l for 1 and o for 0', () => {
    const { hashes } = generateRecoveryCodes();
    const code = '01ab-cdef-gh01-jkmn';
    const stored = [...hashes, hashRecoveryCode(code)];
    expect(consumeRecoveryCode(' OLAB CDEF GHOI JKMN ', stored)?.matched).toBe(hashRecoveryCode(code));
  });

  it('a wrong code, another set’s code or an empty list finds nothing', () => {
    const mine = generateRecoveryCodes();
    const theirs = generateRecoveryCodes();
    expect(consumeRecoveryCode(theirs.codes[0]!, mine.hashes)).toBeNull();
    expect(consumeRecoveryCode('', mine.hashes)).toBeNull();
    expect(consumeRecoveryCode(mine.codes[0]!, [])).toBeNull();
    expect(consumeRecoveryCode(mine.codes[0]!, ['not-hex', ''])).toBeNull();
  });
});
