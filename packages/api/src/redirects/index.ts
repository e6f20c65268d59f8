/**
 * The redirect path's pieces the server wires in: a visit's one entry (`Visits`), the click
 * recorder (started, flushed and stopped with the server; its counts for metrics), and the
 * descriptions of a visitor the server's logs and tests share.
 */

export type { HostDomain, ServedDomain } from '../domains/domain-directory.ts';

export { bundledGeoDatabases, type GeoLocation, GeoLookup } from '../stats/geo-lookup.ts';
export { describeAgent, isBot, type VisitorAgent } from './agent-class.ts';
export {
  type ClickCounts,
  type ClickEvent,
  ClickRecorder,
  DEFAULT_CLICK_BUFFER_MAX,
  DEFAULT_CLICK_FLUSH_MS,
  DEFAULT_RETENTION_DAYS,
  type DroppedClicks,
  type FlushObserver,
} from './click-recorder.ts';
export { hashPassword } from './link-password.ts';
export { escapeHtml, isPreviewBot, previewPage } from './link-previews.ts';
export { UNLOCK_COOKIE, UNLOCK_SECONDS } from './link-unlocks.ts';
export { PASSWORD_GUESS_WINDOW_MS, PER_LINK, PER_VISITOR } from './password-guesses.ts';
export { redirectKey } from './redirect-key.ts';
export { DEFAULT_STALE_IF_ERROR_MS, type RedirectOutcome } from './redirect-service.ts';
export type { PasswordAttempt, SmartOutcome, SmartTarget } from './smart-redirects.ts';
export { boundedAddress } from './visit-limiter.ts';
export { type VisitHeaders, type VisitSettings, Visits } from './visits.ts';
