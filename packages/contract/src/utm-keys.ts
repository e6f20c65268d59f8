/** The utm object's keys, in the order they are merged into the destination (docs/api-decisions.md). */
export const UTM_KEYS = ['source', 'medium', 'campaign', 'content', 'term'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];
