import type { TestAccount } from './api-calls.ts';
import { recordSampleClicks, type SampleLink } from './sample-clicks.ts';
import type { TestServer } from './test-server.ts';

/**
 * Accounts the browser scenarios of both faces (the extension's manage page and the web
 * dashboard) start from, so the two are tested, and pictured, against the same data.
 */

/**
 * Two tags (Work, Home) and 22 links, oldest first: two pages of 20. The newest three are the
 * ones the scenarios use: `q3` (Work), `pancakes` (Home) and `offsite` (both).
 */
export async function seedTwoPagesOfLinks(account: TestAccount): Promise<Record<'Work' | 'Home', { id: string }>> {
  const work = (await account.call('POST', '/tags', { name: 'Work', color: 'indigo' })).body;
  const home = (await account.call('POST', '/tags', { name: 'Home', color: 'lime' })).body;
  for (let i = 1; i <= 19; i++) {
    await account.call('POST', '/links', { title: `Filler ${i}`, destination_url: `https://example.org/filler/${i}` });
  }
  await account.call('POST', '/links', {
    title: 'Quarterly report',
    destination_url: 'https://example.org/q3',
    tag_ids: [work.id],
    slug: 'q3',
  });
  await account.call('POST', '/links', {
    title: 'Pancake recipe',
    destination_url: 'https://example.org/pancakes',
    tag_ids: [home.id],
    slug: 'pancakes',
  });
  await account.call('POST', '/links', {
    title: 'Team offsite',
    destination_url: 'https://example.org/offsite',
    tag_names: ['Work', 'Home'],
    slug: 'offsite',
  });
  return { Work: work, Home: home };
}

/**
 * A product team's account for the screenshots: four tags, five links and a month of believable
 * clicks (sample-clicks.ts), with the spring launch nine days ago. Gives the ids the pictures open.
 */
export async function seedAcmeAccount(server: TestServer, account: TestAccount): Promise<{ springLinkId: string; launchTagId: string }> {
  const tag = async (name: string, color: string) => (await account.call('POST', '/tags', { name, color })).body.id as string;
  const launch = await tag('Launch', 'indigo');
  const social = await tag('Social', 'fuchsia');
  const docsTag = await tag('Docs', 'cyan');
  await tag('Internal', 'slate');
  const links = [
    ['Pricing page', 'https://acme.example.com/pricing', [launch], 'pricing', 38],
    ['Spring launch announcement', 'https://blog.acme.example.com/2026/spring-launch', [launch, social], 'spring', 64],
    ['API quick start', 'https://docs.acme.example.com/quick-start', [docsTag], 'quick-start', 27],
    ['Conference talk slides', 'https://slides.example.org/acme-keynote', [social], undefined, 6],
    ['Changelog', 'https://acme.example.com/changelog', [docsTag], 'changelog', 3],
  ] as const;
  const sample: SampleLink[] = [];
  let springLinkId = '';
  for (const [title, destination_url, tag_ids, slug, perDay] of links) {
    const created = (await account.call('POST', '/links', { title, destination_url, tag_ids, ...(slug ? { slug } : {}) })).body;
    // The launch: a spike nine days ago on the announcement, a smaller one on the pricing page.
    const spike = slug === 'spring' ? { daysAgo: 9, times: 4 } : slug === 'pricing' ? { daysAgo: 9, times: 2.5 } : undefined;
    sample.push({ id: created.id, perDay, ...(spike ? { spike } : {}) });
    if (slug === 'spring') springLinkId = created.id;
  }
  await recordSampleClicks(server, sample);
  return { springLinkId, launchTagId: launch };
}
