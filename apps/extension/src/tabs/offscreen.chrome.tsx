/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { copyText } from '../lib/clipboard.ts';

// Listening from the module's first run, not from a React effect: the service worker sends the
// text as soon as the document has loaded.
chrome.runtime.onMessage.addListener((message: { target?: string; type?: string; text?: string }, _sender, reply) => {
  if (message.target !== 'offscreen' || message.type !== 'copy' || typeof message.text !== 'string') return false;
  copyText(message.text).then(reply);
  return true;
});

/** The offscreen document of the service worker: copies the text it is sent (Chromium only). */
export default function Offscreen() {
  return null;
}
