// Mistakes the SDK's types must turn into compile errors; the test expects one on each marked line.
import { createClient, type ErrorCode } from '@shortlinks/client';

const client = createClient({ baseUrl: 'http://localhost:3000', apiKey: 'slk_x' });

await client.links.create({ title: 'Typo', destination: 'https://example.com' }); // error: misspelt field
await client.tags.create({ name: 'Red', color: 'red' }); // error: colour outside the enum
await client.links.list({ per_page: '10' }); // error: a string where a number goes
await client.stats.account({ interval: 'week' }); // error: interval outside the enum
await client.links.bulkCreate({ links: [{ title: 'Typo', destinaton_url: 'https://example.com' }] }); // error: misspelt field in an item
const code: ErrorCode = 'SLUG_TAKEN_TYPO'; // error: not an error code
console.log(code);
