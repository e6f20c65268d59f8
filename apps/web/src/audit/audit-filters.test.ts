import { describe, expect, test } from 'vitest';
import { auditLogQuery, auditQueryString, auditViewOf, DEFAULT_AUDIT_VIEW, isFiltered } from './audit-filters.ts';

describe('the audit log’s address', () => {
  test('holds the filters and the page under the API’s names, and only what is not the default', () => {
    expect(auditQueryString({})).toBe('');
    expect(auditQueryString({ page: 1, perPage: 20 })).toBe('');
    expect(auditQueryString({ actorId: ' usr_1 ', resourceId: 'lnk_2', action: 'link.deleted', page: 3, perPage: 50 })).toBe(
      '?actor_id=usr_1&resource_id=lnk_2&action=link.deleted&page=3&per_page=50',
    );
  });

  test('reads back what it wrote', () => {
    const view = { actorId: 'key_9', resourceId: 'lnk_2', action: 'link.updated' as const, page: 2, perPage: 100 };
    expect(auditViewOf(auditQueryString(view))).toEqual(view);
  });

  test('leaves at their defaults the parts it cannot read', () => {
    expect(auditViewOf('?action=link.exploded&page=0&per_page=500')).toEqual(DEFAULT_AUDIT_VIEW);
    expect(auditViewOf('?page=2.5&per_page=abc')).toEqual(DEFAULT_AUDIT_VIEW);
    expect(auditViewOf(`?actor_id=${'x'.repeat(300)}`).actorId).toHaveLength(100);
  });

  test('asks the API only for the filters set', () => {
    expect(auditLogQuery(DEFAULT_AUDIT_VIEW)).toEqual({ page: 1, per_page: 20 });
    expect(auditLogQuery({ ...DEFAULT_AUDIT_VIEW, action: 'tag.created', actorId: 'usr_1' })).toEqual({
      page: 1,
      per_page: 20,
      action: 'tag.created',
      actor_id: 'usr_1',
    });
    expect(isFiltered(DEFAULT_AUDIT_VIEW)).toBe(false);
    expect(isFiltered({ ...DEFAULT_AUDIT_VIEW, page: 4 })).toBe(false);
    expect(isFiltered({ ...DEFAULT_AUDIT_VIEW, resourceId: 'lnk_1' })).toBe(true);
  });
});
