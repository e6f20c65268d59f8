import type { ExportQuery } from '@shortlinks/client';
import type { ListView } from '@shortlinks/ui';

/** The export formats the dashboard offers, with the words it shows for them. */
export const EXPORT_CHOICES = [
  { format: 'csv', label: 'CSV', type: 'text/csv;charset=utf-8', extension: 'csv' },
  { format: 'jsonl', label: 'JSON Lines', type: 'application/jsonl;charset=utf-8', extension: 'jsonl' },
] as const;
export type ExportChoice = (typeof EXPORT_CHOICES)[number];

/** The export of what the list shows: its search and its tag (the order and page do not change what is in it). */
export function exportQueryOf(view: Pick<ListView, 'search' | 'tagId' | 'domain'>, format: ExportChoice['format']): ExportQuery {
  const query: ExportQuery = { format };
  if (view.search.trim() !== '') query.search = view.search.trim();
  if (view.tagId !== '') query.tag_ids = [view.tagId];
  if (view.domain !== '') query.domain = view.domain;
  return query;
}

/** `links-2026-11-27.csv`, or `links-news-2026-11-27.jsonl` for a tag's: a name that says what and when. */
export function exportFileName(choice: ExportChoice, tagName: string | undefined, now: Date): string {
  const day = now.toISOString().slice(0, 10);
  const tag = tagName
    ?.toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `links-${tag ? `${tag}-` : ''}${day}.${choice.extension}`;
}

/**
 * Saves text the page holds as a file: a Blob behind an `<a download>`, clicked. The file comes
 * through the client (the key in its `Authorization` header), never through an address the
 * browser opens, which would need the key in the URL. `blob:` is in the page's CSP (docs/dashboard.md).
 */
export function saveFile(parts: string[], name: string, type: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The download has taken the Blob once the click is handled; the page need not keep it.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
