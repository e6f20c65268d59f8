import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  account = await createAccount(server);
});
afterAll(() => server.close());

const link = (body: Record<string, unknown>) => ({ destination_url: 'https://example.com/hidden', title: 'Plain', ...body });

describe('titles and tag names with characters that hide or reorder text are refused', () => {
  test.each([
    ['U+202E RIGHT-TO-LEFT OVERRIDE', 'invoice \u202Efdp.exe'],
    ['U+200B ZERO WIDTH SPACE', 'pay\u200Bpal'],
    ['U+2066 LEFT-TO-RIGHT ISOLATE', 'a\u2066b'],
    ['U+FEFF ZERO WIDTH NO-BREAK SPACE', 'x\uFEFFy'],
  ])('%s: in a title, in tag_names, and as a tag name, 422 naming the character; nothing saved', async (name, text) => {
    const before = await countRows(server, 'link');
    const titled = await account.call('POST', '/links', link({ title: text }));
    expect(titled.status).toBe(422);
    expect(titled.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'title' });
    expect(titled.body.message).toContain(name);
    const tagged = await account.call('POST', '/links', link({ tag_names: ['ok', text] }));
    expect(tagged.status).toBe(422);
    expect(tagged.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'tag_names' });
    expect(tagged.body.message).toContain(name);
    const tag = await account.call('POST', '/tags', { name: text });
    expect(tag.status).toBe(422);
    expect(tag.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'name' });
    expect(await countRows(server, 'link')).toBe(before);
  });

  test('PATCH refuses them too', async () => {
    const created = await account.call('POST', '/links', link({}));
    const patched = await account.call('PATCH', `/links/${created.body.id}`, { title: 'a\u202Eb' });
    expect(patched.status).toBe(422);
    expect(patched.body).toMatchObject({ field: 'title' });
  });

  test('joiners and marks real text needs are accepted: emoji sequences, Persian, Hebrew with a mark', async () => {
    for (const title of [
      '👨\u200D👩\u200D👧 family',
      'می\u200Cخواهم',
      '\u200F\u05E9\u05DC\u05D5\u05DD 2026',
      '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
    ]) {
      const created = await account.call('POST', '/links', link({ title, tag_names: [title.slice(0, 20)] }));
      expect(created.status, `${title}: ${created.text}`).toBe(201);
      expect(created.body.title).toBe(title);
    }
  });
});
