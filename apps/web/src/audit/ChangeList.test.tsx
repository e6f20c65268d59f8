// @vitest-environment happy-dom
import type { AuditEntry } from '@shortlinks/contract';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { ChangeList } from './ChangeList.tsx';

afterEach(cleanup);

const entry = (action: AuditEntry['action'], changes: AuditEntry['changes']): AuditEntry => ({
  id: 'aud_1',
  action,
  actor: { type: 'user', id: 'usr_1', name: 'Ada' },
  resource: { type: 'link', id: 'lnk_1' },
  changes,
  ip: '127.0.0.1',
  created_at: 0,
});

const fieldText = (container: HTMLElement, field: string) =>
  container.querySelector(`[data-field="${field}"] dd`)?.textContent?.replace(/\s+/g, ' ').trim();

describe('what an entry changed', () => {
  test('an edit shows each field before → after', () => {
    const { container } = render(
      <ChangeList entry={entry('link.updated', { title: { before: 'Old', after: 'New' }, comments: { before: null, after: 'hi' } })} />,
    );
    expect(fieldText(container, 'title')).toBe('Old → changed to New');
    expect(fieldText(container, 'comments')).toBe('none → changed to hi');
  });

  test('a creation shows the values set, a deletion what was removed', () => {
    const created = render(
      <ChangeList entry={entry('link.created', { slug: { before: null, after: 'spring' }, tags: { before: null, after: [] } })} />,
    );
    expect(fieldText(created.container, 'slug')).toBe('spring');
    // An empty list set at creation says nothing.
    expect(created.container.querySelector('[data-field="tags"]')).toBeNull();
    cleanup();
    const deleted = render(<ChangeList entry={entry('link.deleted', { slug: { before: 'spring', after: null } })} />);
    expect(fieldText(deleted.container, 'slug')).toBe('spring');
  });

  test('a long value is shortened, the whole of it on hover', () => {
    const long = `https://example.org/${'x'.repeat(300)}`;
    const { container } = render(
      <ChangeList entry={entry('link.updated', { destination_url: { before: 'https://example.org/', after: long } })} />,
    );
    const after = container.querySelector('.audit-after');
    expect(after?.textContent?.length).toBeLessThan(80);
    expect(after?.getAttribute('title')).toBe(long);
  });

  test('an entry without fields says so', () => {
    const { container } = render(<ChangeList entry={entry('domain.verified', {})} />);
    expect(container.textContent).toBe('No field changed');
  });
});
