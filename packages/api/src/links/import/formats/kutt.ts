import type { ImportRow } from '../import-row.ts';
import { foreignTitle } from './foreign-title.ts';
import { jsonItems } from './json-items.ts';
import { rowsOfJsonItems } from './rows.ts';
import type { TextSource } from './text.ts';
import { hostOfShortUrl, jsonText, refuse, required, timestamp } from './values.ts';

/**
 * Kutt has no export; this reads its API's `GET /api/v2/links` saved to a file:
 * `{"total", "limit", "skip", "data": [...]}` (Kutt's `links.handler.js` `get`, each link through
 * `utils.sanitize.link`). `address` is the slug, `target` the destination, `description` the title;
 * `expire_in` and `created_at` are ISO times (or `YYYY-MM-DD HH:MM:SS` UTC from a SQLite Kutt).
 * Kutt gives only `password: true`, never the password: such a link is reported, not imported
 * open. A link Kutt's admins banned is reported too, not brought back to life. `domain` is the
 * link's custom domain, null on Kutt's own, whose host is then the short URL's (`link`): the import
 * keeps a row on it when the workspace has verified it (docs/domains.md), as Shlink's rows.
 */
export function readKuttJson(source: TextSource): AsyncGenerator<ImportRow> {
  return rowsOfJsonItems(jsonItems(source, /^data\.\d+$/), (item) => {
    if (item.password === true) {
      refuse({
        code: 'PASSWORD_PROTECTED',
        message: 'the link is password-protected on Kutt; its password cannot be exported',
        field: 'password',
      });
    }
    if (item.banned === true) {
      refuse({ code: 'LINK_BANNED', message: 'the link is banned on Kutt', field: 'banned' });
    }
    return {
      slug: jsonText(item, 'address'),
      destination_url: required(jsonText(item, 'target'), 'target'),
      title: foreignTitle(jsonText(item, 'description')),
      expires_at: timestamp(jsonText(item, 'expire_in'), 'expire_in'),
      created_at: timestamp(jsonText(item, 'created_at'), 'created_at'),
      domain: jsonText(item, 'domain') ?? hostOfShortUrl(jsonText(item, 'link')),
    };
  });
}
