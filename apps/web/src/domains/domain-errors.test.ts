import { ShortlinksError } from '@shortlinks/client';
import { describe, expect, test } from 'vitest';
import { domainErrorOf } from './domain-errors.ts';

describe('domainErrorOf', () => {
  test('a validation error is shown at its field, in words', () => {
    const error = new ShortlinksError('VALIDATION_ERROR', 'root_redirect_url must be an http or https URL', 422, 'root_redirect_url');
    expect(domainErrorOf(error)).toEqual({ field: 'root_redirect_url', message: 'The root redirect must be an http or https URL.' });
  });

  test('a name taken elsewhere is shown at the name', () => {
    const error = new ShortlinksError('DOMAIN_TAKEN', 'Another workspace has verified go.acme.example', 409, 'name');
    expect(domainErrorOf(error)).toMatchObject({ field: 'name' });
  });

  test('a domain with live links says so for the whole domain', () => {
    const error = new ShortlinksError('DOMAIN_HAS_LINKS', '2 live links use go.acme.example; delete them first', 409);
    expect(domainErrorOf(error)).toEqual({
      field: 'form',
      message: '2 live links use go.acme.example; delete them first. Until then the domain stays.',
    });
  });
});
