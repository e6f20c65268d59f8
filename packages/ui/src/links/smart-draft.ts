import type { Link, LinkInput, LinkUpdate } from '@shortlinks/client';
import type { Preview, RedirectRule, RuleConditions } from '@shortlinks/contract';
import { completeAddress } from './web-address.ts';

/**
 * A smart link's fields as the link form edits them (issue #30): a new password (never shown: the
 * API does not give it back), a click limit, redirect rules and a social preview.
 *
 * A rule's conditions are one line of `name=value` pairs, comma-separated
 * (`device=mobile, country=DE, language=fr, query.src=qr, after=2026-12-01T09:00`): one input that
 * holds any rule the API can, so a rule set elsewhere is edited without losing a condition.
 */
export interface RuleDraft {
  conditions: string;
  destination: string;
}

export interface SmartDraft {
  /** A new password; '' keeps the current one (or none). */
  password: string;
  /** Remove the link's password. */
  removePassword: boolean;
  /** A whole number, or '' for no limit. */
  maxClicks: string;
  rules: RuleDraft[];
  previewTitle: string;
  previewDescription: string;
  previewImage: string;
}

export const EMPTY_SMART: SmartDraft = {
  password: '',
  removePassword: false,
  maxClicks: '',
  rules: [],
  previewTitle: '',
  previewDescription: '',
  previewImage: '',
};

export function smartDraftOf(link: Link): SmartDraft {
  return {
    password: '',
    removePassword: false,
    maxClicks: link.max_clicks === undefined ? '' : String(link.max_clicks),
    rules: (link.rules ?? []).map((rule) => ({ conditions: conditionsText(rule.if), destination: rule.destination_url })),
    previewTitle: link.preview?.title ?? '',
    previewDescription: link.preview?.description ?? '',
    previewImage: link.preview?.image_url ?? '',
  };
}

const TEXT_CONDITIONS = ['device', 'os', 'browser', 'country', 'language'] as const;

/** Conditions as the form shows them. Times are shown as UTC ISO 8601 (`2026-12-01T09:00:00.000Z`). */
export function conditionsText(conditions: RuleConditions): string {
  const parts: string[] = [];
  for (const name of TEXT_CONDITIONS) {
    const value = conditions[name];
    if (value !== undefined) parts.push(`${name}=${value}`);
  }
  for (const [param, value] of Object.entries(conditions.query ?? {})) parts.push(`query.${param}=${value}`);
  if (conditions.after !== undefined) parts.push(`after=${new Date(conditions.after).toISOString()}`);
  if (conditions.before !== undefined) parts.push(`before=${new Date(conditions.before).toISOString()}`);
  return parts.join(', ');
}

/** The conditions a line holds, or what is wrong with it (the server checks the values themselves). */
export function conditionsOf(text: string): RuleConditions | string {
  const conditions: RuleConditions = {};
  for (const part of text.split(',')) {
    const pair = part.trim();
    if (pair === '') continue;
    const at = pair.indexOf('=');
    if (at <= 0) return `“${pair}” is not name=value`;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if ((TEXT_CONDITIONS as readonly string[]).includes(name)) {
      (conditions as Record<string, unknown>)[name] = value;
    } else if (name.startsWith('query.') && name.length > 'query.'.length) {
      conditions.query = { ...conditions.query, [name.slice('query.'.length)]: value };
    } else if (name === 'after' || name === 'before') {
      const ms = /^\d+$/.test(value) ? Number(value) : new Date(value).getTime();
      if (Number.isNaN(ms)) return `${name} must be a date and time, such as 2026-12-01T09:00`;
      conditions[name] = ms;
    } else {
      return `“${name}” is not a condition: use device, os, browser, country, language, query.NAME, after or before`;
    }
  }
  return Object.keys(conditions).length === 0 ? 'A rule needs at least one condition, such as device=mobile' : conditions;
}

/** The rules a draft holds, or the first problem (with the rule's place) the form can see itself. */
export function rulesOf(drafts: readonly RuleDraft[]): RedirectRule[] | { problem: string } {
  const rules: RedirectRule[] = [];
  for (const [index, draft] of drafts.entries()) {
    const conditions = conditionsOf(draft.conditions);
    if (typeof conditions === 'string') return { problem: `Rule ${index + 1}: ${conditions}.` };
    if (draft.destination.trim() === '') return { problem: `Rule ${index + 1}: enter the address it leads to.` };
    rules.push({ if: conditions, destination_url: completeAddress(draft.destination) });
  }
  return rules;
}

function previewOf(draft: SmartDraft): Preview | null {
  const preview: Preview = {};
  if (draft.previewTitle.trim() !== '') preview.title = draft.previewTitle.trim();
  if (draft.previewDescription.trim() !== '') preview.description = draft.previewDescription.trim();
  if (draft.previewImage.trim() !== '') preview.image_url = completeAddress(draft.previewImage);
  return Object.keys(preview).length === 0 ? null : preview;
}

function maxClicksOf(draft: SmartDraft): number | null {
  return draft.maxClicks.trim() === '' ? null : Number(draft.maxClicks.trim());
}

/** The smart fields of a new link: only those filled in. Throws nothing; {@link smartProblem} is asked first. */
export function smartCreateOf(draft: SmartDraft): Partial<LinkInput> {
  const body: Partial<LinkInput> = {};
  if (draft.password !== '') body.password = draft.password;
  const maxClicks = maxClicksOf(draft);
  if (maxClicks !== null) body.max_clicks = maxClicks;
  const rules = rulesOf(draft.rules);
  if (Array.isArray(rules) && rules.length > 0) body.rules = rules;
  const preview = previewOf(draft);
  if (preview) body.preview = preview;
  return body;
}

/** The smart fields that changed between the link and the draft, as a PATCH sends them. */
export function smartUpdateOf(link: Link, draft: SmartDraft): Partial<LinkUpdate> {
  const update: Partial<LinkUpdate> = {};
  if (draft.removePassword && link.password_protected) update.password = null;
  else if (draft.password !== '') update.password = draft.password;
  const maxClicks = maxClicksOf(draft);
  if (maxClicks !== (link.max_clicks ?? null)) update.max_clicks = maxClicks;
  const rules = rulesOf(draft.rules);
  if (Array.isArray(rules) && JSON.stringify(rules) !== JSON.stringify(link.rules ?? [])) update.rules = rules.length > 0 ? rules : null;
  const preview = previewOf(draft);
  if (JSON.stringify(preview) !== JSON.stringify(link.preview ?? null)) update.preview = preview;
  return update;
}

/** What the form can see is wrong before sending: at the field it belongs to. */
export function smartProblem(draft: SmartDraft): { field: 'max_clicks' | 'rules'; message: string } | undefined {
  const maxClicks = draft.maxClicks.trim();
  if (maxClicks !== '' && !/^\d+$/.test(maxClicks)) return { field: 'max_clicks', message: 'The click limit must be a whole number.' };
  const rules = rulesOf(draft.rules);
  if (!Array.isArray(rules)) return { field: 'rules', message: rules.problem };
  return undefined;
}
