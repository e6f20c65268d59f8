import type { RedirectRule, RuleConditions } from '@shortlinks/contract';
import type { VisitorAgent } from './agent-class.ts';

/** What a rule's conditions are checked against: the visit, described once. */
export interface RuleVisit {
  now: number;
  agent: VisitorAgent;
  /** ISO 3166-1 alpha-2, from the same source the click's country comes from; null when unknown. */
  country: string | null;
  acceptLanguage: string | undefined;
  /** The request's query string, without `?` ('' for none). */
  query: string;
}

/**
 * The destination of the first rule whose conditions all hold (issue #30, docs/redirects.md);
 * undefined when none does, and the link's own destination applies. Rules are checked in order:
 * what a person reading the list expects, and what lets a specific rule come before a general one.
 */
export function ruleDestination(rules: readonly RedirectRule[], visit: RuleVisit): string | undefined {
  let languages: string[] | undefined;
  let query: URLSearchParams | undefined;
  for (const rule of rules) {
    const when = rule.if;
    if (!agentHolds(when, visit.agent) || !timeHolds(when, visit.now)) continue;
    if (when.country !== undefined && when.country !== visit.country) continue;
    if (when.language !== undefined) {
      languages ??= acceptedLanguages(visit.acceptLanguage);
      if (!languageHolds(when.language, languages)) continue;
    }
    if (when.query !== undefined) {
      query ??= new URLSearchParams(visit.query);
      if (!queryHolds(when.query, query)) continue;
    }
    return rule.destination_url;
  }
  return undefined;
}

function agentHolds(when: RuleConditions, agent: VisitorAgent): boolean {
  if (when.device !== undefined && when.device !== agent.device) return false;
  if (when.os !== undefined && !sameName(when.os, agent.os)) return false;
  if (when.browser !== undefined && !sameName(when.browser, agent.browser)) return false;
  return true;
}

/** `after` inclusive, `before` exclusive: consecutive windows never overlap. */
function timeHolds(when: RuleConditions, now: number): boolean {
  return (when.after === undefined || now >= when.after) && (when.before === undefined || now < when.before);
}

const sameName = (wanted: string, actual: string | null) => actual !== null && wanted.toLowerCase() === actual.toLowerCase();

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
    const [tag = '', ...params] = entry.split(';');
    const name = tag.trim().toLowerCase();
    if (name === '' || name === '*') continue;
    const q = params.map((param) => param.trim()).find((param) => param.toLowerCase().startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    tags.push(name);
  }
  return tags;
}

/** `fr` holds for `fr` and `fr-CA`; `fr-CA` only for `fr-CA` (a range and its subtags, RFC 4647 basic filtering). */
function languageHolds(wanted: string, accepted: readonly string[]): boolean {
  const range = wanted.toLowerCase();
  return accepted.some((tag) => tag === range || tag.startsWith(`${range}-`));
}

function queryHolds(wanted: Readonly<Record<string, string>>, query: URLSearchParams): boolean {
  for (const [name, value] of Object.entries(wanted)) if (!query.getAll(name).includes(value)) return false;
  return true;
}
