/** The redirect path's pieces the server wires in: visitor descriptions, click recording, the visit limiter. */
export { agentClass, countryCode, describeAgent, referrerHost, type VisitorAgent } from './agent-class.ts';
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
export { DEFAULT_STALE_IF_ERROR_MS, type RedirectOutcome } from './redirect-service.ts';
export { boundedAddress, VisitLimiter } from './visit-limiter.ts';
