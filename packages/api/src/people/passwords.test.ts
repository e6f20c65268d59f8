import { describe, expect, test } from 'vitest';
import { isCommonPassword } from './common-passwords.ts';
import { checkNewPassword, hashPassword, passwordMatches, verifyAgainstDummy } from './passwords.ts';

describe('a new password', () => {
  test('has 10 to 256 characters (counted as people see them, not UTF-16 units)', () => {
    expect(() => checkNewPassword('nine char')).toThrow(/at least 10/);
    expect(checkNewPassword('ten chars!')).toBe('ten chars!');
    expect(checkNewPassword('🐙'.repeat(256))).toHaveLength(512);
    expect(() => checkNewPassword('x'.repeat(257))).toThrow(/at most 256/);
  });

  test('is refused when among the most common passwords, whatever its case, on the field named', () => {
    expect(isCommonPassword('password1234')).toBe(true);
    expect(isCommonPassword('QWERTYUIOP')).toBe(true);
    expect(isCommonPassword('correct horse battery staple 42')).toBe(false);
    expect(() => checkNewPassword('1234567890', 'new_password')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'new_password' }),
    );
  });
});

describe('hashing', () => {
  test('argon2id in PHC form, salted, verified only by its password', async () => {
    const [first, second] = await Promise.all([hashPassword('a long passphrase'), hashPassword('a long passphrase')]);
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(await passwordMatches(first, 'a long passphrase')).toBe(true);
    expect(await passwordMatches(first, 'a long passphrasE')).toBe(false);
    expect(await passwordMatches('not a hash', 'a long passphrase')).toBe(false);
  });

  test('the dummy verification of an unknown email never matches', async () => {
    expect(await verifyAgainstDummy('')).toBe(false);
    expect(await verifyAgainstDummy('a long passphrase')).toBe(false);
  });
});
