import { describe, expect, it } from 'vitest';
import { decodePendingSignIn, emailDomainAllowed, encodePendingSignIn } from './single-sign-on.ts';

describe('single sign-on: the allowed email domains', () => {
  const allowed = ['acme.com', 'Example.ORG'];

  it('an email of an allowed domain passes, whatever the case on either side', () => {
    expect(emailDomainAllowed('ada@acme.com', allowed)).toBe(true);
    expect(emailDomainAllowed('ADA@ACME.COM', allowed)).toBe(true);
    expect(emailDomainAllowed('bob@example.org', allowed)).toBe(true);
  });

  it('the whole domain must match: no suffix, prefix or subdomain tricks', () => {
    for (const email of [
      'mallory@evil-acme.com',
      'mallory@evilacme.com',
      'mallory@acme.com.evil.net',
      'mallory@eng.acme.com',
      'mallory@acme.co',
      'mallory@acme.com.',
      'mallory@acme.com@evil.net',
      'acme.com@evil.net',
      'mallory@',
      '@acme.com',
      'acme.com',
      '',
    ]) {
      expect(emailDomainAllowed(email, allowed), email).toBe(false);
    }
  });

  it('an international domain matches its punycode form and back', () => {
    expect(emailDomainAllowed('anna@bücher.example', ['xn--bcher-kva.example'])).toBe(true);
    expect(emailDomainAllowed('anna@xn--bcher-kva.example', ['Bücher.example'])).toBe(true);
    // A look-alike in another script is another domain.
    expect(emailDomainAllowed('anna@аcme.com', ['acme.com'])).toBe(false);
  });

  it('an empty or malformed list allows nobody', () => {
    expect(emailDomainAllowed('ada@acme.com', [])).toBe(false);
    expect(emailDomainAllowed('ada@acme.com', [''])).toBe(false);
    expect(emailDomainAllowed('ada@acme.com', ['*'])).toBe(false);
  });
});

describe('single sign-on: the pending sign-in cookie', () => {
  const pending = { state: 'a'.repeat(43), nonce: `${'B'.repeat(42)}_`, codeVerifier: `${'-'.repeat(20)}${'9'.repeat(23)}` };

  it('round-trips, URL-safe', () => {
    const value = encodePendingSignIn(pending);
    expect(encodeURIComponent(value)).toBe(value);
    expect(decodePendingSignIn(value)).toEqual(pending);
  });

  it('anything else reads as no pending sign-in', () => {
    for (const value of [
      undefined,
      '',
      'a.b.c',
      `${encodePendingSignIn(pending)}.x`,
      encodePendingSignIn(pending).replace('.', ';'),
      `${'a'.repeat(43)}..${'a'.repeat(43)}`,
    ]) {
      expect(decodePendingSignIn(value)).toBeNull();
    }
  });
});
