import { describe, expect, test } from 'vitest';
import { readConfig } from './env.ts';

const ALL = {
  OIDC_ISSUER: 'https://accounts.acme.com',
  OIDC_CLIENT_ID: 'shortlinks',
  OIDC_CLIENT_SECRET: 's3cret',
  OIDC_ALLOWED_DOMAINS: 'acme.com, eng.acme.com',
  OIDC_WORKSPACE: 'acc_123',
};

describe('readConfig: OIDC_* (single sign-on)', () => {
  test('unset: no single sign-on', () => {
    expect(readConfig({}).config?.singleSignOn).toBeUndefined();
  });

  test('all set: the settings, with the role member by default', () => {
    const { config, problems } = readConfig(ALL);
    expect(problems).toEqual([]);
    expect(config?.singleSignOn).toEqual({
      issuer: 'https://accounts.acme.com',
      clientId: 'shortlinks',
      clientSecret: 's3cret',
      allowedEmailDomains: ['acme.com', 'eng.acme.com'],
      workspaceId: 'acc_123',
      role: 'member',
    });
    expect(readConfig({ ...ALL, OIDC_ROLE: 'viewer' }).config?.singleSignOn?.role).toBe('viewer');
  });

  test('some without the others, an http issuer, or an unknown role: one line each', () => {
    expect(readConfig({ OIDC_ISSUER: ALL.OIDC_ISSUER }).problems).toEqual([
      expect.stringMatching(/^OIDC_CLIENT_ID: is required/),
      expect.stringMatching(/^OIDC_CLIENT_SECRET: is required/),
      expect.stringMatching(/^OIDC_ALLOWED_DOMAINS: is required/),
      expect.stringMatching(/^OIDC_WORKSPACE: is required/),
    ]);
    expect(readConfig({ ...ALL, OIDC_ISSUER: 'http://accounts.acme.com' }).problems).toEqual([expect.stringMatching(/^OIDC_ISSUER: /)]);
    expect(readConfig({ ...ALL, OIDC_ROLE: 'emperor' }).problems).toEqual([expect.stringMatching(/^OIDC_ROLE: /)]);
  });
});
