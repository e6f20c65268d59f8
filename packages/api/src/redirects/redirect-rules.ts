import type { RedirectRule } from '@shortlinks/contract';
import type { VisitorAgent } from './agent-class.ts';
import type { AgentClass } from './click-values.ts';

/** What a rule's conditions are checked against: the visit, described once. */
export interface RuleVisit {
  now: number;
  agent: VisitorAgent;
  /**
   * ISO 3166-1 alpha-2, from the same sources as the click's (the trusted header, else the IP
   * database); null when unknown, or when no rule names a country (then it is not looked up).
   */
  country: string | null;
  acceptLanguage: string | undefined;
  /** The request's query string, without `?` ('' for none). */
  query: string;
}

/**
 * One rule as a visit checks it: compiled once when its link is loaded into the redirect cache
 * (smart-redirect.ts), so a visit neither lower-cases the rule's names nor walks its objects.
 */
interface CompiledRule {
  destination: string;
  device: AgentClass | undefined;
  /** Lower case. */
  os: string | undefined;
  browser: string | undefined;
  country: string | undefined;
  /** Lower case: a language range. */
  language: string | undefined;
  /** Every `[param, value]` must be among the query's. */
  query: readonly (readonly [string, string])[] | undefined;
  after: number | undefined;
  before: number | undefined;
}

/** A link's rules, compiled for its visits (see {@link compileRules}). */
export interface CompiledRules {
  readonly rules: readonly CompiledRule[];
  /** Whether a rule names a country: only then is the visitor's address looked up (visits.ts). */
  readonly readsCountry: boolean;
}

/** Compiles a link's rules, in their order, for {@link ruleDestination}. */
export function compileRules(rules: readonly RedirectRule[]): CompiledRules {
  return {
    readsCountry: rules.some((rule) => rule.if.country !== undefined),
    rules: rules.map(({ if: when, destination_url }) => ({
      destination: destination_url,
      device: when.device,
      os: when.os?.toLowerCase(),
      browser: when.browser?.toLowerCase(),
      country: when.country,
      language: when.language?.toLowerCase(),
      query: when.query === undefined ? undefined : Object.entries(when.query),
      after: when.after,
      before: when.before,
    })),
  };
}

/**
 * The destination of the first rule whose conditions all hold (issue #30, docs/redirects.md);
 * undefined when none does, and the link's own destination applies. Rules are checked in order:
 * what a person reading the list expects, and what lets a specific rule come before a general one.
 * The visit's Accept-Language and query are parsed at most once, and only when a rule reaches them.
 */
export function ruleDestination({ rules }: CompiledRules, visit: RuleVisit): string | undefined {
  let os: string | null | undefined;
  let browser: string | null | undefined;
  let languages: string[] | undefined;
  let query: URLSearchParams | undefined;
  const { agent, now } = visit;
  for (const rule of rules) {
    if (rule.device !== undefined && rule.device !== agent.device) continue;
    // `after` inclusive, `before` exclusive: consecutive windows never overlap.
    if ((rule.after !== undefined && now < rule.after) || (rule.before !== undefined && now >= rule.before)) continue;
    if (rule.country !== undefined && rule.country !== visit.country) continue;
    if (rule.os !== undefined) {
      os ??= agent.os?.toLowerCase() ?? null;
      if (rule.os !== os) continue;
    }
    if (rule.browser !== undefined) {
      browser ??= agent.browser?.toLowerCase() ?? null;
      if (rule.browser !== browser) continue;
    }
    if (rule.language !== undefined) {
      languages ??= acceptedLanguages(visit.acceptLanguage);
      if (!languageHolds(rule.language, languages)) continue;
    }
    if (rule.query !== undefined) {
      query ??= new URLSearchParams(visit.query);
      if (!queryHolds(rule.query, query)) continue;
    }
    return rule.destination;
  }
  return undefined;
}

/**
 * The language tags of an Accept-Language header, lower-cased, leaving out those the visitor
 * refuses (`q=0`) and the wildcard. Order and weights do not matter for a match: any accepted
 * language that the rule names is enough.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const tags: string[] = [];
  // A visitor may send anything: a bounded number of entries is read.
  for (const entry of header.split(',', 50)) {
    const semicolon = entry.indexOf(';');
    const name = (semicolon < 0 ? entry : entry.slice(0, semicolon)).trim().toLowerCase();
    if (name === '' || name === '*') continue;
    if (semicolon >= 0 && refused(entry.slice(semicolon + 1))) continue;
    tags.push(name);
  }
  return tags;
}

/** Whether an entry's parameters (`q=0.5;…`) give it a weight of 0 (or one that is not a number). */
function refused(params: string): boolean {
  for (const param of params.split(';')) {
    const trimmed = param.trim();
    if (trimmed.length >= 2 && (trimmed[0] === 'q' || trimmed[0] === 'Q') && trimmed[1] === '=') return !(Number(trimmed.slice(2)) > 0);
  }
  return false;
}

/** `fr` holds for `fr` and `fr-CA`; `fr-CA` only for `fr-CA` (a range and its subtags, RFC 4647 basic filtering). */
function languageHolds(range: string, accepted: readonly string[]): boolean {
  for (const tag of accepted)
    if (tag === range || (tag.length > range.length && tag[range.length] === '-' && tag.startsWith(range))) return true;
  return false;
}

function queryHolds(wanted: readonly (readonly [string, string])[], query: URLSearchParams): boolean {
  for (const [name, value] of wanted) if (!query.getAll(name).includes(value)) return false;
  return true;
}
