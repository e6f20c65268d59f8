/**
 * The utm object's keys, in the order they are merged into the destination (docs/api-decisions.md).
 * In a module without zod: the extension imports them, and Parcel, which bundles it, breaks zod
 * (`z.string is not a function` on every page) when a zod module comes along (docs/extension.md).
 */
export const UTM_KEYS = ['source', 'medium', 'campaign', 'content', 'term'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];
