import type { Domain } from '@shortlinks/client';
import { describe, expect, test } from 'vitest';
import { domainChoicesOf } from './domain-choices.ts';

const domain = (name: string, verified: boolean, is_default = false) => ({ name, verified, is_default }) as Domain;

describe('domainChoicesOf', () => {
  test('no verified domain: no picker', () => {
    expect(domainChoicesOf({ server_domain: 'sho.rt', domains: [] })).toBeUndefined();
    expect(domainChoicesOf({ server_domain: 'sho.rt', domains: [domain('pending.example', false)] })).toBeUndefined();
  });

  test('the server domain first, then verified domains by name; pending and stopped ones left out', () => {
    const choices = domainChoicesOf({
      server_domain: 'sho.rt',
      domains: [domain('z.example', true), domain('pending.example', false), domain('a.example', true)],
    });
    expect(choices).toEqual({ names: ['sho.rt', 'a.example', 'z.example'], preferred: 'sho.rt' });
  });

  test("the workspace's verified default is preferred", () => {
    const choices = domainChoicesOf({ server_domain: 'sho.rt', domains: [domain('go.example', true, true), domain('b.example', true)] });
    expect(choices?.preferred).toBe('go.example');
  });
});
