import { describe, expect, test } from 'vitest';
import { aRole, isRole, roleAbove, roleAtLeast } from './roles.ts';

describe('roles', () => {
  test('rank owner > admin > member > viewer', () => {
    expect(roleAtLeast('owner', 'viewer')).toBe(true);
    expect(roleAtLeast('member', 'member')).toBe(true);
    expect(roleAtLeast('viewer', 'member')).toBe(false);
    expect(roleAbove('admin', 'member')).toBe(true);
    expect(roleAbove('admin', 'admin')).toBe(false);
  });

  test('are read only from their names', () => {
    expect(isRole('admin')).toBe(true);
    expect(isRole('root')).toBe(false);
    expect(isRole(undefined)).toBe(false);
    expect([aRole('owner'), aRole('member')]).toEqual(['an owner', 'a member']);
  });
});
