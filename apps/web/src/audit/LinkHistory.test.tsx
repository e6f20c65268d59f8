// @vitest-environment happy-dom
import type { AuditEntry, ListAuditLogQuery } from '@shortlinks/contract';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { CallFailed } from '../people/session-calls.ts';
import { LinkHistory } from './LinkHistory.tsx';

afterEach(cleanup);

const entry = (n: number): AuditEntry => ({
  id: `aud_${n}`,
  action: 'link.updated',
  actor: { type: 'user', id: 'usr_1', name: 'ada@acme.example' },
  resource: { type: 'link', id: 'lnk_1' },
  changes: { title: { before: `v${n - 1}`, after: `v${n}` } },
  ip: '127.0.0.1',
  created_at: 1_700_000_000_000 + n,
});

/** A log of `total` edits of lnk_1, newest first, and the queries it was asked. */
function fakeLog(total: number) {
  const asked: ListAuditLogQuery[] = [];
  const all = Array.from({ length: total }, (_, at) => entry(total - at));
  const read = async (query: ListAuditLogQuery) => {
    asked.push(query);
    const start = (query.page - 1) * query.per_page;
    return { entries: all.slice(start, start + query.per_page), page: query.page, per_page: query.per_page, total };
  };
  return { read, asked };
}

const shownIds = () =>
  [...document.querySelectorAll('[data-testid="audit-entry"]')].map((row) => row.querySelector('.audit-after')?.textContent);

describe('a link’s history', () => {
  test('asks for the link’s entries, ten at a time, and Show more adds the next ten below', async () => {
    const log = fakeLog(13);
    render(<LinkHistory read={log.read} linkId="lnk_1" version={0} />);
    await waitFor(() => expect(shownIds()).toHaveLength(10));
    expect(log.asked[0]).toEqual({ resource_id: 'lnk_1', page: 1, per_page: 10 });
    expect(shownIds()[0]).toBe('v13');
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(shownIds()).toHaveLength(13));
    expect(shownIds().at(-1)).toBe('v1');
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  test('says when nothing was recorded', async () => {
    render(<LinkHistory read={fakeLog(0).read} linkId="lnk_1" version={0} />);
    await screen.findByText('No changes recorded for this link.');
  });

  test('shows nothing when the server refuses the caller, and a retry when it fails', async () => {
    const refused = async () => {
      throw new CallFailed('FORBIDDEN', 'This key lacks the scope audit.read', null, 403);
    };
    const { container } = render(<LinkHistory read={refused} linkId="lnk_1" version={0} />);
    await waitFor(() => expect(container.innerHTML).toBe(''));
    cleanup();
    let calls = 0;
    const flaky = async (query: ListAuditLogQuery) => {
      calls++;
      if (calls === 1) throw new CallFailed('INTERNAL_ERROR', 'The server answered 500; try again', null, 500);
      return fakeLog(1).read(query);
    };
    render(<LinkHistory read={flaky} linkId="lnk_1" version={0} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(shownIds()).toEqual(['v1']));
  });
});
