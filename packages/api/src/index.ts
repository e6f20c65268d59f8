import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './root.ts';

export type { Context } from './context.ts';
export { PLAN_LIMITS } from './domain/plans.ts';
export { LocalDenylist, type ReputationVerdict, type UrlReputation } from './domain/reputation.ts';
export { AppError, toAppError } from './errors.ts';
export { agentClass, countryCode, describeAgent, referrerHost, type VisitorAgent } from './redirects/agent-class.ts';
export { type ClickEvent, ClickRecorder } from './redirects/click-recorder.ts';
export type { RedirectOutcome } from './redirects/redirect-service.ts';
export { type AppRouter, appRouter } from './root.ts';
export type { AccountView, NewAccount } from './services/account-service.ts';
export { API_KEY_PREFIX, type ApiKeyView } from './services/api-key-service.ts';
export { createServices, type ServiceOptions, type Services } from './services/index.ts';
export { successStatus } from './success-status.ts';
export { bearerToken } from './trpc.ts';

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
