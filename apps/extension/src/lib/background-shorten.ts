import { formErrorOf } from '@shortlinks/ui/errors';
import { clientFor } from './connection.ts';
import { loadSettings, loadShortOrigins } from './settings.ts';
import { shortenPage } from './shorten.ts';
import { whyNotShortenable } from './shortenable.ts';

export type BackgroundResult = { ok: true; shortUrl: string; created: boolean } | { ok: false; message: string };

/**
 * Shortening without the popup (context menu, keyboard shortcut): the same checks and the same
 * upsert as the popup, reported as a short result for a badge and a notification.
 */
export async function shortenInBackground(url: string | undefined, title: string | undefined): Promise<BackgroundResult> {
  const settings = await loadSettings();
  if (!settings) return { ok: false, message: 'Set up the server address and API key in the extension’s options first.' };
  const refusal = whyNotShortenable(url, [settings.serverUrl, ...(await loadShortOrigins())]);
  if (refusal || !url) return { ok: false, message: refusal ?? 'Nothing to shorten here.' };
  try {
    const link = await shortenPage(clientFor(settings), url, title);
    return { ok: true, shortUrl: link.short_url, created: link.created };
  } catch (error) {
    return { ok: false, message: formErrorOf(error).message };
  }
}
