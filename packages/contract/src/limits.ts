/**
 * Every limit of the API specification, in one place (spec: "Limits"), and the API's fixed lists.
 * No zod here: part of the `./rules` entry that browser bundles import.
 */
export const LIMITS = {
  titleChars: 200,
  urlChars: 2048,
  slugChars: 64,
  randomSlugChars: 6,
  utmValueChars: 200,
  commentsChars: 2048,
  externalIdChars: 255,
  expiryYearsAhead: 10,
  tagsPerLink: 10,
  tagNameChars: 50,
  tagIdsFilter: 20,
  searchChars: 200,
  perPageMax: 100,
  perPageDefault: 20,
  /** Not in the spec: items of one bulk call (issue #14; docs/api-decisions.md). */
  bulkItems: 100,
  /** Not in the spec: deep OFFSET pages are slow and useless; documented in docs/api-decisions.md. */
  pageMax: 1_000_000,
  /** A domain name as sent: DNS allows 253 characters; room for Unicode before it becomes punycode (docs/domains.md). */
  domainNameChars: 253,
  /**
   * Domains one workspace may hold, pending ones included (docs/domains.md): each costs a DNS
   * look-up per re-check and a place in every instance's memory, and a pending name can be added
   * by anyone, so a workspace cannot add names without end.
   */
  domainsPerWorkspace: 100,
  /** Days a verified domain keeps serving once its TXT record is gone (docs/domains.md). */
  domainRecordGraceDays: 7,
  /** Smart links (issue #30, docs/redirects.md): a link's password, click limit, redirect rules and preview. */
  passwordMinChars: 4,
  passwordMaxChars: 128,
  maxClicksMax: 1_000_000_000,
  rulesPerLink: 20,
  ruleQueryParams: 10,
  ruleTextChars: 64,
  ruleQueryChars: 200,
  previewTitleChars: 200,
  previewDescriptionChars: 500,
} as const;

export const TAG_COLORS = ['indigo', 'violet', 'cyan', 'fuchsia', 'lime', 'slate'] as const;
export type TagColor = (typeof TAG_COLORS)[number];

export const PLANS = ['starter', 'team', 'trial', 'unlimited'] as const;
export type Plan = (typeof PLANS)[number];
