import type { Link } from '@shortlinks/client';

/** A link as the API answers it, for the components' tests; `changes` replace its fields. */
export function sampleLink(changes: Partial<Link> = {}): Link {
  return {
    id: 'lnk_1',
    domain: 'sho.rt',
    short_url: 'https://sho.rt/abc123',
    destination_url: 'https://example.com/read',
    title: 'Read me',
    slug: 'abc123',
    tags: [],
    click_count: 0,
    created_at: 0,
    ...changes,
  };
}
