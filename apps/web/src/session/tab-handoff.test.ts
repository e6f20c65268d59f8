// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:3000/app/links"}
import { afterEach, describe, expect, test, vi } from 'vitest';
import { announceSignOut, askOpenTabs, HANDOFF_COOKIE, serveOpenTabs } from './tab-handoff.ts';

/** Another dashboard tab: the same module with a tab identity of its own. */
async function otherTab(): Promise<typeof import('./tab-handoff.ts')> {
  vi.resetModules();
  return import('./tab-handoff.ts');
}

/** This window at another page of the same origin (the browser's cookie jar is the same). */
function visit(path: string): void {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`http://localhost:3000${path}`);
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  announceSignOut();
  visit('/app/links');
});

describe('the session across dashboard tabs', () => {
  test('a new tab with no signed-in tab open gets no key', async () => {
    expect(await askOpenTabs(100)).toBeUndefined();
  });

  test('a signed-in tab hands its key to a new one, until it stops serving', async () => {
    const stop = serveOpenTabs('slk_session_key', () => undefined);
    const other = await otherTab();
    expect(await other.askOpenTabs()).toBe('slk_session_key');
    stop();
    const started = Date.now();
    expect(await other.askOpenTabs(100)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  test('signing out in one tab signs out the others, not the tab itself twice', async () => {
    let here = 0;
    stops.push(serveOpenTabs('slk_session_key', () => here++));
    const other = await otherTab();
    expect(await other.askOpenTabs()).toBe('slk_session_key');
    let there = 0;
    stops.push(other.serveOpenTabs('slk_session_key', () => there++));

    other.announceSignOut();
    await vi.waitFor(() => expect(here).toBe(1));
    // Its own announcement is not news to the tab that signed out.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(there).toBe(0);
    announceSignOut();
    await vi.waitFor(() => expect(there).toBe(1));
    expect(here).toBe(1);
  });
});

describe('only pages of the dashboard are handed the key', () => {
  test('a script on /docs asking on the public channel name, as the issue did, hears no key', async () => {
    stops.push(serveOpenTabs('slk_session_key', () => undefined));
    visit('/docs/');
    const heard: unknown[] = [];
    const spy = new BroadcastChannel('shortlinks.dashboard.session');
    spy.onmessage = ({ data }) => heard.push(data);
    spy.postMessage({ kind: 'ask' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    spy.close();
    expect(heard).toEqual([]);
  });

  test('a page outside /app cannot read the channel secret, so its ask reaches no tab', async () => {
    stops.push(serveOpenTabs('slk_session_key', () => undefined));
    expect(document.cookie).toContain(`${HANDOFF_COOKIE}=`);
    visit('/docs/');
    expect(document.cookie).not.toContain(HANDOFF_COOKIE);
    const docsPage = await otherTab();
    expect(await docsPage.askOpenTabs(100)).toBeUndefined();
    visit('/app/');
    expect(await (await otherTab()).askOpenTabs()).toBe('slk_session_key');
  });

  test('a secret planted in the cookie by another page is not where a signed-in tab answers', async () => {
    visit('/docs/');
    const planted = 'f'.repeat(32);
    // biome-ignore lint/suspicious/noDocumentCookie: what a script on another page would write.
    document.cookie = `${HANDOFF_COOKIE}=${planted}; Path=/app`;
    visit('/app/');
    stops.push(serveOpenTabs('slk_session_key', () => undefined));
    expect(document.cookie).not.toContain(planted);
    const heard: unknown[] = [];
    const spy = new BroadcastChannel(`shortlinks.dashboard.session.${planted}`);
    spy.onmessage = ({ data }) => heard.push(data);
    spy.postMessage({ kind: 'ask' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    spy.close();
    expect(heard).toEqual([]);
  });

  test('signing out removes the secret: a later tab has nobody to ask', async () => {
    stops.push(serveOpenTabs('slk_session_key', () => undefined));
    announceSignOut();
    expect(document.cookie).not.toMatch(new RegExp(`${HANDOFF_COOKIE}=[0-9a-f]`));
    expect(await (await otherTab()).askOpenTabs(100)).toBeUndefined();
  });
});
