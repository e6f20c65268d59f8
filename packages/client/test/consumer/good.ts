// A program written against the packed SDK, as a user's project would (module: nodenext, strict).
import { createClient, type ErrorCode, type Link, type LinkPage, ShortlinksError, type TagColor } from '@shortlinks/client';

// Node.js runs this; the project has no @types/node, only TypeScript.
declare const process: { env: Record<string, string | undefined> };

const client = createClient({ baseUrl: process.env.SHORTLINKS_URL ?? '', apiKey: process.env.SHORTLINKS_KEY ?? '' });

const color: TagColor = 'lime';
const tag = await client.tags.create({ name: 'From the SDK', color });
const link: Link = await client.links.create({
  title: 'Packed SDK',
  destination_url: 'https://example.com/sdk',
  utm: { source: 'sdk' },
  tag_ids: [tag.id],
});
const again = await client.links.upsert({ title: 'Packed SDK, renamed', destination_url: link.destination_url });
const page: LinkPage = await client.links.list({ per_page: 10, tag_ids: [tag.id] });
const stats = await client.stats.link(link.id, { interval: 'day', tz: 'Europe/Berlin' });

let refused: ErrorCode | 'NETWORK_ERROR' | undefined;
let field: string | undefined;
try {
  await client.links.create({ title: 'Same slug', destination_url: 'https://example.com/other', slug: link.slug });
} catch (error) {
  if (error instanceof ShortlinksError) {
    refused = error.code;
    field = error.field;
  }
}
await client.links.delete(link.id);

// Bulk: every item's own result, whether all, some or none were done.
const bulk = await client.links.bulkCreate({
  links: [
    { title: 'Bulk one', destination_url: 'https://example.com/bulk-1' },
    { title: 'Bulk two', destination_url: 'https://example.com/bulk-2', slug: 'docs' },
  ],
});
const bulkCreated = bulk.results.flatMap((result) => (result.ok ? [result.link.id] : []));
const bulkRefused = bulk.results.flatMap((result) => (result.ok ? [] : [`${result.index}:${result.status}:${result.error.code}`]));
const bulkDeleted = await client.links.bulkDelete({ ids: bulkCreated });

console.log(
  JSON.stringify({
    destination: link.destination_url,
    created: again.created,
    title: again.title,
    listed: page.links.map((listed) => listed.id),
    total: page.total,
    days: stats.series.length,
    refused,
    field,
    bulk: { succeeded: bulk.succeeded, refused: bulkRefused, deleted: bulkDeleted.succeeded },
  }),
);
