import { SCOPES } from '@shortlinks/contract';
import { describe, expect, test } from 'vitest';
import { includedByWrite, readScopeOf, SCOPE_CHOICES, scopesOfRole, scopesToSend } from './scope-choices.ts';

describe('the scopes the keys page offers', () => {
  test('every scope of the API, in its order', () => {
    expect(SCOPE_CHOICES.map((choice) => choice.scope)).toEqual([...SCOPES]);
    expect(SCOPE_CHOICES.map((choice) => choice.scope)).toEqual([
      'links.read',
      'links.write',
      'tags.read',
      'tags.write',
      'analytics.read',
      'keys.write',
      'audit.read',
      'domains.read',
      'domains.write',
      'webhooks.read',
      'webhooks.write',
    ]);
  });

  test('a viewer is offered read-only scopes; a member no audit, domain writes or webhooks; admins and owners all', () => {
    expect(scopesOfRole('viewer')).toEqual(['links.read', 'tags.read', 'analytics.read', 'domains.read']);
    expect(scopesOfRole('viewer').every((scope) => scope.endsWith('.read'))).toBe(true);
    expect(scopesOfRole('member')).toEqual([
      'links.read',
      'links.write',
      'tags.read',
      'tags.write',
      'analytics.read',
      'keys.write',
      'domains.read',
    ]);
    expect(scopesOfRole('admin')).toHaveLength(SCOPE_CHOICES.length);
    expect(scopesOfRole('owner')).toHaveLength(SCOPE_CHOICES.length);
  });

  test('a write includes its read: shown as included, and sent once', () => {
    expect(readScopeOf('links.write')).toBe('links.read');
    expect(readScopeOf('keys.write')).toBeUndefined();
    expect(readScopeOf('links.read')).toBeUndefined();
    expect(includedByWrite('links.read', ['links.write'])).toBe(true);
    expect(includedByWrite('links.read', ['links.read'])).toBe(false);
    expect(scopesToSend(['tags.write', 'links.read', 'links.write', 'tags.read'])).toEqual(['links.write', 'tags.write']);
    expect(scopesToSend(['analytics.read', 'links.read'])).toEqual(['links.read', 'analytics.read']);
  });
});
