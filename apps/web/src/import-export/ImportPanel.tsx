import type { ImportInput, ImportReport } from '@shortlinks/client';
import { CONFLICT_MODES, type ConflictMode, IMPORT_FORMATS, type ImportFormat } from '@shortlinks/contract/rules';
import { useShortlinks } from '@shortlinks/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ImportReportView } from './ImportReportView.tsx';
import { importErrorOf, linksToWrite } from './import-report.ts';

/** What each on-conflict choice does, in the words the form shows. */
const CONFLICT_LABELS: Record<ConflictMode, string> = {
  skip: 'Skip it (leave the existing link as it is)',
  update: 'Update it with the row',
  fail: 'Stop and import nothing',
};

/** Where an import is: a file chosen, its dry run's report, the import running, or its report. */
type Step =
  | { at: 'choosing' }
  | { at: 'checking' }
  | { at: 'checked'; report: ImportReport }
  | { at: 'importing'; checked: ImportReport }
  | { at: 'imported'; report: ImportReport };

/**
 * Import: a file in any format `pnpm shortlinks import` reads, checked first (a dry run: each row
 * created, skipped or refused, with its row number and why), then imported with the same choices
 * (docs/dashboard.md, "Import and export"). The file goes to `links.import`, the same procedure as
 * POST /api/v1/links/import.
 */
export function ImportPanel({ onImported, onClose }: { onImported: () => void; onClose: () => void }) {
  const { client } = useShortlinks();
  const [file, setFile] = useState<File>();
  const [format, setFormat] = useState<ImportFormat | ''>('');
  const [onConflict, setOnConflict] = useState<ConflictMode>('skip');
  const [step, setStep] = useState<Step>({ at: 'choosing' });
  const [error, setError] = useState<string>();
  const result = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // The report (or the failure) is what to read next: take the focus there, as the bulk bar does.
    if (step.at === 'checked' || step.at === 'imported' || error) result.current?.focus();
  }, [step.at, error]);

  /** Any change to what would be imported makes the last check stale. */
  const changed = (apply: () => void) => {
    apply();
    setStep({ at: 'choosing' });
    setError(undefined);
  };

  const send = async (dryRun: boolean): Promise<ImportReport | undefined> => {
    if (!file) return;
    setError(undefined);
    const input: ImportInput = { file: await file.text(), on_conflict: onConflict, dry_run: dryRun };
    if (format !== '') input.format = format;
    try {
      return await client.links.import(input);
    } catch (caught) {
      setError(importErrorOf(caught));
      return undefined;
    }
  };

  const check = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setError('Choose a file to import first.');
      return;
    }
    setStep({ at: 'checking' });
    const report = await send(true);
    setStep(report ? { at: 'checked', report } : { at: 'choosing' });
  };

  const importChecked = async (checked: ImportReport) => {
    setStep({ at: 'importing', checked });
    const report = await send(false);
    setStep(report ? { at: 'imported', report } : { at: 'checked', report: checked });
    if (report) onImported();
  };

  const busy = step.at === 'checking' || step.at === 'importing';
  return (
    <section className="panel transfer-panel" aria-label="Import links">
      <h2 className="transfer-heading">Import</h2>
      <p className="muted">
        A file exported from Shortlinks (CSV or JSON Lines), Shlink, Bitly, Kutt or YOURLS. Check it first: nothing is written until you
        import.
      </p>
      <form onSubmit={check} className="import-form">
        <div className="grid-2">
          <label className="field">
            <span className="label">File</span>
            <input
              type="file"
              name="file"
              accept=".csv,.jsonl,.ndjson,.json,.txt,text/csv,application/json"
              disabled={busy}
              onChange={(event) => changed(() => setFile(event.target.files?.[0]))}
            />
          </label>
          <label className="field">
            <span className="label">Format</span>
            <select value={format} disabled={busy} onChange={(event) => changed(() => setFormat(event.target.value as ImportFormat | ''))}>
              <option value="">Tell from the file</option>
              {IMPORT_FORMATS.map((each) => (
                <option key={each} value={each}>
                  {each}
                </option>
              ))}
            </select>
          </label>
        </div>
        <label className="field">
          <span className="label">When a row names a link that exists (same slug or external id)</span>
          <select value={onConflict} disabled={busy} onChange={(event) => changed(() => setOnConflict(event.target.value as ConflictMode))}>
            {CONFLICT_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {CONFLICT_LABELS[mode]}
              </option>
            ))}
          </select>
        </label>
        <div className="row end transfer-actions">
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            Close
          </button>
          <button type="submit" className={step.at === 'checked' ? 'button' : 'button primary'} disabled={busy}>
            {step.at === 'checking' ? 'Checking…' : 'Check'}
          </button>
          {step.at === 'checked' ? (
            <button
              type="button"
              className="button primary"
              disabled={linksToWrite(step.report) === 0 || step.report.stopped_at !== undefined}
              onClick={() => importChecked(step.report)}
            >
              {importLabel(step.report)}
            </button>
          ) : null}
        </div>
      </form>
      <div ref={result} tabIndex={-1} className="transfer-result">
        {error ? (
          <div className="banner error" role="alert">
            {error}
          </div>
        ) : null}
        {busy ? (
          <div className="bulk-progress" role="status">
            <progress aria-label={step.at === 'checking' ? 'Checking the file' : 'Importing'} />
            <span>{step.at === 'checking' ? `Checking ${file?.name ?? 'the file'}…` : `Importing ${file?.name ?? 'the file'}…`}</span>
          </div>
        ) : null}
        {step.at === 'checked' ? <ImportReportView report={step.report} /> : null}
        {step.at === 'importing' ? <ImportReportView report={step.checked} /> : null}
        {step.at === 'imported' ? <ImportReportView report={step.report} /> : null}
      </div>
    </section>
  );
}

/** "Import 12 links": what the import will write, as its dry run found it. */
function importLabel(report: ImportReport): string {
  const count = linksToWrite(report);
  if (count === 0) return 'Nothing to import';
  return `Import ${count} ${count === 1 ? 'link' : 'links'}`;
}
