import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { createAccount, startTestServer, type TestAccount, type TestServer } from '../../server/test/harness.ts';
import { type DashboardBrowser, launchDashboardBrowser, signInWith } from './browser.ts';

/**
 * The dashboard's screenshots in docs/ (`pnpm --filter @shortlinks/web screenshots`), taken in the
 * real browser with realistic data. Skipped in the normal end-to-end run.
 */
const enabled = process.env.UPDATE_SCREENSHOTS === '1';
const docs = path.resolve(import.meta.dirname, '../../../docs');

let server: TestServer;
let browser: DashboardBrowser;
let account: TestAccount;
let spring: string;

const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
];
const REFERRERS = ['https://news.ycombinator.com/', 'https://www.linkedin.com/feed/', undefined, 'https://mail.google.com/'];

beforeAll(async () => {
  if (!enabled) return;
  [server, browser] = await Promise.all([startTestServer({ countryHeader: 'cf-ipcountry' }), launchDashboardBrowser()]);
  account = await createAccount(server, { name: 'Acme', plan: 'team' });
  const tag = async (name: string, color: string) => (await account.call('POST', '/tags', { name, color })).body.id as string;
  const launch = await tag('Launch', 'indigo');
  const social = await tag('Social', 'fuchsia');
  const docsTag = await tag('Docs', 'cyan');
  await tag('Internal', 'slate');
  const links = [
    ['Pricing page', 'https://acme.example.com/pricing', [launch], 'pricing', 42],
    ['Spring launch announcement', 'https://blog.acme.example.com/2026/spring-launch', [launch, social], 'spring', 318],
    ['API quick start', 'https://docs.acme.example.com/quick-start', [docsTag], 'quick-start', 87],
    ['Conference talk slides', 'https://slides.example.org/acme-keynote', [social], undefined, 12],
    ['Changelog', 'https://acme.example.com/changelog', [docsTag], 'changelog', 5],
  ] as const;
  for (const [title, destination_url, tag_ids, slug, clicks] of links) {
    const link = (await account.call('POST', '/links', { title, destination_url, tag_ids, ...(slug ? { slug } : {}) })).body;
    if (slug === 'spring') spring = link.id;
    for (let i = 0; i < clicks; i++) {
      const referer = REFERRERS[i % REFERRERS.length];
      await fetch(`${server.origin}/${link.slug}`, {
        redirect: 'manual',
        headers: {
          'user-agent': `${AGENTS[i % AGENTS.length]} visitor-${i % 97}`,
          'cf-ipcountry': ['US', 'DE', 'GB', 'FR', 'JP'][i % 5]!,
          ...(referer ? { referer } : {}),
        },
      });
    }
  }
  await server.services.clicks.flush();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function shoot(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(docs, `dashboard-${name}.png`) });
}

test.skipIf(!enabled)('dashboard screenshots', { timeout: 120_000 }, async () => {
  const { context } = await browser.newContext({ viewport: { width: 1180, height: 800 } });
  const page = await context.newPage();
  await signInWith(page, server.origin, account.key);
  await page.getByTestId('link-row').first().waitFor();
  await shoot(page, 'links');

  await page.goto(`${server.origin}/app/links/${spring}`);
  await page.getByRole('heading', { name: 'Spring launch announcement' }).waitFor();
  await shoot(page, 'link');

  await page.goto(`${server.origin}/app/overview`);
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  await shoot(page, 'overview');

  const phone = await browser.newContext({ viewport: { width: 390, height: 780 } });
  const small = await phone.context.newPage();
  await signInWith(small, server.origin, account.key);
  await small.getByTestId('link-row').first().waitFor();
  await shoot(small, 'phone');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('API key').waitFor();
  await shoot(page, 'sign-in');
});
