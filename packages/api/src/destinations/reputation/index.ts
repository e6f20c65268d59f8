import { type FailurePolicy, RemoteReputation } from './remote-reputation.ts';
import type { UrlReputation } from './reputation-chain.ts';
import { SafeBrowsingLookup } from './safe-browsing.ts';
import { WebRiskLookup } from './web-risk.ts';

export type ReputationProvider = 'none' | 'safe-browsing' | 'web-risk';

/** The remote reputation service an operator chose (docs/security.md), as validated from the environment. */
export interface RemoteReputationSettings {
  provider: ReputationProvider;
  apiKey?: string | undefined;
  /** The API's origin; tests point it at a local fake. */
  baseUrl?: string | undefined;
  timeoutMs: number;
  cleanCacheMs: number;
  policy: FailurePolicy;
}

/** The configured remote service, or undefined for `none` (the denylist alone). */
export function remoteReputation(settings: RemoteReputationSettings, warn: (message: string) => void): UrlReputation | undefined {
  if (settings.provider === 'none') return undefined;
  if (!settings.apiKey) throw new Error(`the ${settings.provider} reputation provider needs an API key`);
  const options = { apiKey: settings.apiKey, ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}) };
  const lookup = settings.provider === 'safe-browsing' ? new SafeBrowsingLookup(options) : new WebRiskLookup(options);
  return new RemoteReputation(lookup, {
    timeoutMs: settings.timeoutMs,
    cleanCacheMs: settings.cleanCacheMs,
    policy: settings.policy,
    provider: settings.provider,
    warn,
  });
}

export { type DenylistEntryView, DenylistService, InvalidDenylistEntry } from './denylist-service.ts';
export type { FailurePolicy } from './remote-reputation.ts';
export {
  type CheckObserver,
  type CheckResult,
  LocalDenylist,
  ReputationChain,
  ReputationUnavailable,
  type ReputationVerdict,
  type UrlReputation,
} from './reputation-chain.ts';
