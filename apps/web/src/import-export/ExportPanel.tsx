import type { Tag } from '@shortlinks/client';
import { type ListView, useShortlinks } from '@shortlinks/ui';
import { type FormEvent, useState } from 'react';
import { EXPORT_CHOICES, type ExportChoice, exportFileName, exportQueryOf, saveFile } from './export-file.ts';
import { importErrorOf } from './import-report.ts';

/**
 * Export: the links the list shows (its search, tag and domain; every link when it shows all) as a CSV or
 * JSON Lines file, the same file as GET /api/v1/links/export (docs/import-export.md).
 */
export function ExportPanel({ view, tags, onClose }: { view: ListView; tags: Tag[]; onClose: () => void }) {
  const { client } = useShortlinks();
  const [choice, setChoice] = useState<ExportChoice>(EXPORT_CHOICES[0]);
  const [running, setRunning] = useState(false);
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<string>();
  const tag = view.tagId === '' ? undefined : tags.find((each) => each.id === view.tagId);

  const run = async (event: FormEvent) => {
    event.preventDefault();
    setRunning(true);
    setDone(undefined);
    setError(undefined);
    try {
      const parts: string[] = [];
      for await (const chunk of await client.links.export(exportQueryOf(view, choice.format))) parts.push(chunk);
      const name = exportFileName(choice, tag?.name, new Date());
      saveFile(parts, name, choice.type);
      setDone(name);
    } catch (caught) {
      setError(importErrorOf(caught));
    } finally {
      setRunning(false);
    }
  };

  return (
    <form className="panel transfer-panel" aria-label="Export links" onSubmit={run}>
      <h2 className="transfer-heading">Export</h2>
      <p className="muted">{whatIsExported(view, tag)}</p>
      <fieldset className="transfer-choices">
        <legend className="label">Format</legend>
        {EXPORT_CHOICES.map((each) => (
          <label key={each.format} className="check">
            <input type="radio" name="export-format" checked={choice.format === each.format} onChange={() => setChoice(each)} />
            {each.label}
          </label>
        ))}
      </fieldset>
      {error ? (
        <div className="banner error" role="alert">
          {error}
        </div>
      ) : null}
      {done ? (
        <div className="banner ok" role="status">
          Downloaded <strong>{done}</strong>
        </div>
      ) : null}
      <div className="row end transfer-actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        <button type="submit" className="button primary" disabled={running}>
          {running ? 'Exporting…' : `Download ${choice.label}`}
        </button>
      </div>
    </form>
  );
}

/** What the file will hold, in the list's words. */
function whatIsExported(view: ListView, tag: Tag | undefined): string {
  const search = view.search.trim();
  if (search === '' && view.tagId === '' && view.domain === '') {
    return 'Every link of the account, oldest first, with its tags, expiry and clicks.';
  }
  const parts = [
    search === '' ? '' : `matching “${search}”`,
    view.tagId === '' ? '' : `tagged ${tag?.name ?? 'with the chosen tag'}`,
    view.domain === '' ? '' : `on ${view.domain}`,
  ];
  return `The links the list shows: those ${parts.filter(Boolean).join(' and ')}, oldest first.`;
}
