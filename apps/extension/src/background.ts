import { listenForShortening } from './lib/background-actions.ts';

// Chromium's background (the default build). Firefox's is `background.firefox.ts`, which Plasmo
// picks instead for `--target=firefox-mv3`.

const OFFSCREEN_PATH = 'tabs/offscreen.chrome.html';

/**
 * A service worker has no DOM and so no clipboard: Chromium copies through an offscreen document
 * (`tabs/offscreen.chrome.tsx`).
 */
async function copyThroughOffscreenDocument(text: string): Promise<boolean> {
  const existing = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT] });
  if (existing.length === 0) {
    await chrome.offscreen.createDocument({
      url: OFFSCREEN_PATH,
      reasons: [chrome.offscreen.Reason.CLIPBOARD],
      justification: 'Copy the new short link to the clipboard',
    });
  }
  const copied: unknown = await chrome.runtime.sendMessage({ target: 'offscreen', type: 'copy', text });
  return copied === true;
}

listenForShortening(copyThroughOffscreenDocument);
