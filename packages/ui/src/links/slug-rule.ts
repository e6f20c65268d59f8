/**
 * The one sentence about changing a slug, under the slug box of New link, Edit and the extension's
 * popup. It is true in all three: PATCH cannot change a slug (spec: PATCH /links/{id}, rule 1), so
 * a different slug (Change… in Edit, or a slug typed in the popup over a link just made) makes a
 * new link, and the old short URL stops working (save-draft.ts: moveToSlug).
 */
export const SLUG_RULE = 'A slug never changes once the link exists: another slug makes a new link, and the old short URL stops working.';
