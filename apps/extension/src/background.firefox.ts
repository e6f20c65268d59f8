import { listenForShortening } from './lib/background-actions.ts';
import { copyText } from './lib/clipboard.ts';

// Firefox's background, picked by Plasmo for `--target=firefox-mv3` instead of `background.ts`.
// Firefox runs a Manifest V3 background as an event page, which has a DOM of its own and may
// write to the clipboard with the `clipboardWrite` permission: no offscreen document (Firefox has
// none), and so nothing Chromium-only in this build.
listenForShortening(copyText);
