import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './root.ts';

export type { Context } from './context.ts';
export { ANONYMOUS_RATE_LIMIT, API_RATE_LIMITS, PLAN_LIMITS } from './domain/plans.ts';
export {
  LocalDenylist,
  ReputationChain,
  ReputationUnavailable,
  type ReputationVerdict,
  type UrlReputation,
} from './domain/reputation.ts';
export { AppError, toAppError, trpcErrorBody } from './errors.ts';
export { agentClass, countryCode, describeAgent, referrerHost, type VisitorAgent } from './redirects/agent-class.ts';
export { type ClickEvent, ClickRecorder, DEFAULT_CLICK_FLUSH_MS, type DroppedClicks } from './redirects/click-recorder.ts';
export type { RedirectOutcome } from './redirects/redirect-service.ts';
export { VisitLimiter } from './redirects/visit-limiter.ts';
export {
  type DenylistEntryView,
  DenylistService,
  type FailurePolicy,
  InvalidDenylistEntry,
  type RemoteReputationSettings,
  type ReputationProvider,
  remoteReputation,
} from './reputation/index.ts';
export { type AppRouter, appRouter } from './root.ts';
export type { AccountView, NewAccount } from './services/account-service.ts';
export { API_KEY_PREFIX, type ApiKeyView, type Caller } from './services/api-key-service.ts';
export { createServices, type ServiceOptions, type Services } from './services/index.ts';
export { successStatus } from './success-status.ts';
export { bearerToken } from './trpc.ts';

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
