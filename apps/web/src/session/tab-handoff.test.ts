import { afterEach, describe, expect, test, vi } from 'vitest';
import { announceSignOut, askOpenTabs, serveOpenTabs } from './tab-handoff.ts';

/** Another dashboard tab: the same module with a tab identity of its own. */
async function otherTab(): Promise<typeof import('./tab-handoff.ts')> {
  vi.resetModules();
  return import('./tab-handoff.ts');
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe('the session across dashboard tabs', () => {
  test('a new tab with no signed-in tab open gets no key, after a short wait', async () => {
    const started = Date.now();
    expect(await askOpenTabs(100)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  test('a signed-in tab hands its key to a new one, until it stops serving', async () => {
    const stop = serveOpenTabs('slk_session_key', () => undefined);
    const other = await otherTab();
    expect(await other.askOpenTabs()).toBe('slk_session_key');
    stop();
    expect(await other.askOpenTabs(100)).toBeUndefined();
  });

  test('signing out in one tab signs out the others, not the tab itself twice', async () => {
    let here = 0;
    stops.push(serveOpenTabs('slk_session_key', () => here++));
    const other = await otherTab();
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
