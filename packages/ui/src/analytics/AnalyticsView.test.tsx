// @vitest-environment happy-dom
import { type GroupStats, type LinkStats, type ShortlinksClient, ShortlinksError, type StatsQuery } from '@shortlinks/client';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { ShortlinksProvider } from '../ShortlinksProvider.tsx';
import { AccountAnalytics, LinkAnalytics, TagAnalytics } from './index.ts';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-05-10T14:37:00Z');
const now = () => NOW;

/** Three days of a link in Kolkata: day buckets start at 18:30 UTC. */
const linkStats: LinkStats = {
  start: Date.parse('2026-05-07T18:30:00Z'),
  end: Date.parse('2026-05-10T18:30:00Z'),
  interval: 'day',
  tz: 'Asia/Kolkata',
  totals: { clicks: 1234, unique_visitors: 901 },
  series: [
    { start: Date.parse('2026-05-07T18:30:00Z'), clicks: 1200, unique_visitors: 890 },
    { start: Date.parse('2026-05-08T18:30:00Z'), clicks: 0, unique_visitors: 0 },
    { start: Date.parse('2026-05-09T18:30:00Z'), clicks: 34, unique_visitors: 11 },
  ],
  breakdowns: {
    start: Date.parse('2026-05-07T00:00:00Z'),
    end: Date.parse('2026-05-11T00:00:00Z'),
    referrers: [
      { value: 'news.example.org', clicks: 1000 },
      { value: null, clicks: 234 },
    ],
    devices: [{ value: 'mobile', clicks: 1234 }],
    browsers: [{ value: 'Safari', clicks: 1234 }],
    operating_systems: [{ value: null, clicks: 1234 }],
    countries: [
      { value: 'IN', clicks: 1100 },
      { value: null, clicks: 134 },
    ],
    cities: [
      { value: 'Mumbai', country: 'IN', clicks: 1100 },
      { value: null, country: null, clicks: 134 },
    ],
    triggers: [
      { value: 'link', clicks: 1000 },
      { value: 'qr', clicks: 234 },
    ],
  },
};

const emptyStats: LinkStats = {
  ...linkStats,
  totals: { clicks: 0, unique_visitors: 0 },
  series: linkStats.series.map((bucket) => ({ ...bucket, clicks: 0, unique_visitors: 0 })),
  breakdowns: {
    ...linkStats.breakdowns,
    referrers: [],
    devices: [],
    browsers: [],
    operating_systems: [],
    countries: [],
    cities: [],
    triggers: [],
  },
};

const groupStats: GroupStats = {
  ...linkStats,
  top_links: [
    { id: 'lnk_spring', slug: 'spring', short_url: 'https://sho.rt/spring', title: 'Spring launch', clicks: 1000 },
    { id: 'lnk_docs', slug: 'docs', short_url: 'https://sho.rt/docs', title: 'Docs', clicks: 234 },
  ],
};

type Answer = LinkStats | GroupStats | Error;

/**
 * A client whose statistics calls answer from `answers` in turn (the last one repeats) and
 * remember what they were asked; a promise answer waits until the test settles it.
 */
function statsClient(answers: (Answer | Promise<Answer>)[]) {
  const asked: { what: string; query: StatsQuery }[] = [];
  const answer = async (what: string, query: StatsQuery = {}) => {
    asked.push({ what, query });
    const next = await (answers.length > 1 ? answers.shift() : answers[0]);
    if (next instanceof Error) throw next;
    return structuredClone(next);
  };
  const client = {
    links: {
      get: async (id: string) => ({
        id,
        title: 'Spring launch',
        short_url: 'https://sho.rt/spring',
        destination_url: 'https://example.com/spring',
        slug: 'spring',
        tags: [],
        click_count: 1234,
        created_at: 0,
      }),
    },
    tags: { list: async () => ({ tags: [{ id: 'tag_1', name: 'Launch', color: 'indigo', link_count: 2 }], tag_limit: 25 }) },
    stats: {
      link: (id: string, query?: StatsQuery) => answer(`link ${id}`, query),
      tag: (id: string, query?: StatsQuery) => answer(`tag ${id}`, query),
      account: (query?: StatsQuery) => answer('account', query),
    },
  } as unknown as ShortlinksClient;
  return { client, asked };
}

const show = (client: ShortlinksClient, view: React.ReactNode) => render(<ShortlinksProvider client={client}>{view}</ShortlinksProvider>);

afterEach(cleanup);

describe('LinkAnalytics', () => {
  test('asks for the last 30 days by day in the reader’s time zone, and shows a loading state until the answer', async () => {
    let answer: (stats: LinkStats) => void = () => undefined;
    const { client, asked } = statsClient([new Promise<Answer>((resolve) => (answer = resolve))]);
    show(client, <LinkAnalytics linkId="lnk_spring" timeZone="Asia/Kolkata" locale="en-GB" now={now} />);

    expect(screen.getByRole('status').textContent).toContain('Loading statistics');
    expect(asked).toEqual([
      // 30 local days to now: from midnight IST on 11 April (18:30 UTC on the 10th).
      { what: 'link lnk_spring', query: { start: Date.parse('2026-04-10T18:30:00Z'), end: NOW, interval: 'day', tz: 'Asia/Kolkata' } },
    ]);
    await act(async () => answer(linkStats));
    expect(screen.getByTestId('total-clicks').textContent).toBe('1,234');
    expect(screen.getByTestId('total-visitors').textContent).toBe('901');
    expect(screen.queryByText('Loading statistics…')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Spring launch' })).toBeTruthy();
  });

  test('the table holds every bucket of the series, named in local time, with the totals', async () => {
    const { client } = statsClient([linkStats]);
    show(client, <LinkAnalytics linkId="lnk_spring" timeZone="Asia/Kolkata" locale="en-GB" now={now} />);
    const table = await screen.findByRole('table');
    // Intl puts thin spaces around the dash of a range.
    expect(table.querySelector('caption')?.textContent?.replace(/\s/g, ' ')).toBe('Clicks and unique visitors by day, 8 – 10 May 2026');
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Day', 'Clicks', 'Unique visitors'],
      ['Fri, 8 May 2026', '1,200', '890'],
      ['Sat, 9 May 2026', '0', '0'],
      ['Sun, 10 May 2026', '34', '11'],
      ['Total', '1,234', '901'],
    ]);
  });

  test('the table is read by assistive technology always, and shown on request', async () => {
    const { client } = statsClient([linkStats]);
    show(client, <LinkAnalytics linkId="lnk_spring" timeZone="Asia/Kolkata" locale="en-GB" now={now} />);
    const table = await screen.findByRole('table');
    expect(table.parentElement?.className).toBe('visually-hidden');
    fireEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    expect(table.parentElement?.className).toBe('table-scroll');
    expect(screen.getByTestId('clicks-chart').parentElement?.hidden).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Show as chart' }));
    expect(table.parentElement?.className).toBe('visually-hidden');
  });

  test('breakdowns name countries and say what no value means, with each number in words', async () => {
    const { client } = statsClient([linkStats]);
    show(client, <LinkAnalytics linkId="lnk_spring" timeZone="Asia/Kolkata" locale="en-GB" now={now} />);
    const items = (testId: string) =>
      within(screen.getByTestId(testId))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    await screen.findByTestId('breakdown-countries');
    expect(items('breakdown-countries')).toEqual(['India1,100 clicks', 'Unknown134 clicks']);
    expect(items('breakdown-referrers')).toEqual(['news.example.org1,000 clicks', 'Direct / none234 clicks']);
    expect(items('breakdown-devices')).toEqual(['Mobile1,234 clicks']);
    expect(items('breakdown-operating_systems')).toEqual(['Unknown1,234 clicks']);
    // Cities with their country's name, credited to the IP database; what brought the visitors.
    expect(items('breakdown-cities')).toEqual(['Mumbai, India1,100 clicks', 'Unknown134 clicks']);
    expect(within(screen.getByTestId('breakdown-cities')).getByRole('link', { name: 'IP Geolocation by DB-IP' })).toBeTruthy();
    expect(items('breakdown-triggers')).toEqual(['Link1,000 clicks', 'QR code scan234 clicks']);
    // Breakdowns count whole UTC days, wider than the chart here: the reader is told.
    expect(screen.getByText(/count whole days in UTC: 7\s–\s10 May 2026,/)).toBeTruthy();
  });

  test('numbers follow the reader’s locale', async () => {
    const { client } = statsClient([linkStats]);
    show(client, <LinkAnalytics linkId="lnk_spring" timeZone="Asia/Kolkata" locale="de-DE" now={now} />);
    expect((await screen.findByTestId('total-clicks')).textContent).toBe('1.234');
    expect(within(screen.getByTestId('breakdown-countries')).getAllByRole('listitem')[0]?.textContent).toBe('Indien1.100 clicks');
  });

  test('a range without clicks says so instead of empty charts', async () => {
    const { client } = statsClient([emptyStats]);
    show(client, <LinkAnalytics linkId="lnk_spring" timeZone="UTC" locale="en-GB" now={now} />);
    expect(await screen.findByText('No clicks in this range. Visits appear here a few seconds after they happen.')).toBeTruthy();
    expect(screen.getByTestId('total-clicks').textContent).toBe('0');
    expect(screen.queryByTestId('breakdown-referrers')).toBeNull();
  });

  test('a failure is shown with Try again, which asks again', async () => {
    const { client, asked } = statsClient([new ShortlinksError('LINK_NOT_FOUND', 'link not found', 404), linkStats]);
    show(client, <LinkAnalytics linkId="lnk_gone" timeZone="UTC" locale="en-GB" now={now} />);
    expect((await screen.findByRole('alert')).textContent).toContain('This link no longer exists (it was deleted).');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('total-clicks')).textContent).toBe('1,234');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(asked).toHaveLength(2);
  });

  test('a zone the server does not know is answered in UTC, and the view says so', async () => {
    const refused = new ShortlinksError('VALIDATION_ERROR', 'tz must be an IANA time zone such as Europe/Berlin', 422, 'tz');
    const { client, asked } = statsClient([refused, { ...linkStats, tz: 'UTC' }]);
    show(client, <LinkAnalytics linkId="lnk_spring" timeZone="America/Ciudad_Juarez" locale="en-GB" now={now} />);
    expect(await screen.findByText(/Shown in UTC: the server does not know the time zone America\/Ciudad_Juarez/)).toBeTruthy();
    expect(asked.map((call) => call.query.tz)).toEqual(['America/Ciudad_Juarez', 'UTC']);
  });
});

describe('range picker', () => {
  test('presets ask again: 24 hours by the hour, and hours can be switched to days', async () => {
    const { client, asked } = statsClient([linkStats]);
    show(client, <LinkAnalytics linkId="lnk_spring" timeZone="Asia/Kolkata" locale="en-GB" now={now} />);
    await screen.findByTestId('total-clicks');
    fireEvent.click(screen.getByLabelText('24 hours'));
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]?.query).toEqual({ start: Date.parse('2026-05-09T15:00:00Z'), end: NOW, interval: 'hour', tz: 'Asia/Kolkata' });
    fireEvent.click(screen.getByLabelText('Daily'));
    await waitFor(() => expect(asked).toHaveLength(3));
    expect(asked[2]?.query.interval).toBe('day');
  });

  test('90 days cannot be hourly: Hourly is disabled and the reason given', async () => {
    const { client, asked } = statsClient([linkStats]);
    show(client, <LinkAnalytics linkId="lnk_spring" timeZone="UTC" locale="en-GB" now={now} />);
    await screen.findByTestId('total-clicks');
    fireEvent.click(screen.getByLabelText('90 days'));
    await waitFor(() => expect(asked).toHaveLength(2));
    expect((screen.getByLabelText('Hourly') as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('By day: hours are available for ranges up to 31 days.')).toBeTruthy();
  });

  test('a custom range longer than 31 days asked by the hour is shown by day, and says so', async () => {
    const { client, asked } = statsClient([linkStats]);
    show(client, <LinkAnalytics linkId="lnk_spring" timeZone="Europe/Berlin" locale="en-GB" now={now} />);
    await screen.findByTestId('total-clicks');
    fireEvent.click(screen.getByLabelText('24 hours'));
    fireEvent.click(screen.getByLabelText('Custom'));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-04-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(asked).toHaveLength(3));
    expect(asked[2]?.query).toEqual({
      start: Date.parse('2026-02-28T23:00:00Z'),
      end: Date.parse('2026-04-30T22:00:00Z'),
      interval: 'day',
      tz: 'Europe/Berlin',
    });
    expect(screen.getByText('Shown by day: hours are available for ranges up to 31 days.')).toBeTruthy();
  });

  test('a custom range that cannot be answered is explained at its field, and nothing is asked', async () => {
    const { client, asked } = statsClient([linkStats]);
    show(client, <LinkAnalytics linkId="lnk_spring" timeZone="UTC" locale="en-GB" now={now} />);
    await screen.findByTestId('total-clicks');
    fireEvent.click(screen.getByLabelText('Custom'));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-05-08' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-05-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect((await screen.findByText('The end date must not be before the start date.')).getAttribute('role')).toBe('alert');
    expect(screen.getByLabelText('To').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-01-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-05-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('A range spans at most 400 days: choose a later start date.')).toBeTruthy();
    expect(asked).toHaveLength(1);
  });
});

describe('TagAnalytics and AccountAnalytics', () => {
  test('a tag’s view names the tag and ranks its top links', async () => {
    const { client, asked } = statsClient([groupStats]);
    show(client, <TagAnalytics tagId="tag_1" timeZone="UTC" locale="en-GB" now={now} />);
    expect(await screen.findByText('Launch')).toBeTruthy();
    const top = within(await screen.findByTestId('breakdown-top-links')).getAllByRole('listitem');
    expect(top.map((item) => item.textContent)).toEqual(['Spring launchsho.rt/spring1,000 clicks', 'Docssho.rt/docs234 clicks']);
    expect(asked[0]?.what).toBe('tag tag_1');
    // Without onOpenLink, top links are text, not buttons.
    expect(within(screen.getByTestId('breakdown-top-links')).queryByRole('button')).toBeNull();
  });

  test('the account’s top links open a link’s statistics through onOpenLink', async () => {
    const opened: string[] = [];
    const { client, asked } = statsClient([groupStats]);
    show(client, <AccountAnalytics timeZone="UTC" locale="en-GB" now={now} onOpenLink={(id) => opened.push(id)} />);
    fireEvent.click(await screen.findByRole('button', { name: /^Spring launch/ }));
    expect(opened).toEqual(['lnk_spring']);
    expect(asked[0]?.what).toBe('account');
    expect(screen.getByRole('heading', { name: 'All links' })).toBeTruthy();
  });

  test('an hourly answer is labelled by local time: hh:30 in a half-hour zone', async () => {
    const start = Date.parse('2026-05-10T12:00:00Z');
    const hourly: GroupStats = {
      ...groupStats,
      start,
      end: start + 2 * HOUR,
      interval: 'hour',
      series: [
        { start, clicks: 3, unique_visitors: 2 },
        { start: start + HOUR, clicks: 1, unique_visitors: 1 },
      ],
      totals: { clicks: 4, unique_visitors: 3 },
    };
    const { client } = statsClient([hourly]);
    show(client, <AccountAnalytics timeZone="Asia/Kolkata" locale="en-GB" now={now} />);
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.querySelector('th')?.textContent)).toEqual(['Hour', 'Sun 10 May, 17:30', 'Sun 10 May, 18:30', 'Total']);
  });
});
