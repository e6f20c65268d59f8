import type { ImportReport } from '@shortlinks/client';
import { countsText, type ReportLine, reportLines, unlistedRows } from './import-report.ts';

const RESULT_WORDS: Record<ReportLine['result'], string> = {
  created: 'Created',
  updated: 'Updated',
  unchanged: 'Unchanged',
  skipped: 'Skipped',
  refused: 'Refused',
};

/**
 * An import's report, a dry run's or a real one's: the counts, then each row in file order with
 * what became of it (or would), and for a refused row its code and why.
 */
export function ImportReportView({ report }: { report: ImportReport }) {
  const lines = reportLines(report);
  const unlisted = unlistedRows(report);
  const heading = report.dry_run
    ? `Check of ${report.read} rows (${report.format}): nothing was written`
    : `Imported ${report.read} rows (${report.format})`;
  return (
    <section className="import-report" aria-label={report.dry_run ? 'Check report' : 'Import report'}>
      <h3>{heading}</h3>
      <p className="import-counts" role="status">
        {report.dry_run ? `If imported now: ${countsText(report)}` : countsText(report)}
      </p>
      {report.stopped_at ? (
        <div className="banner error" role="alert">
          Row {report.stopped_at.row} names a link that exists ({report.stopped_at.code}), so the import stops there and imports nothing.
          Choose “Skip” or “Update” to import the other rows.
        </div>
      ) : null}
      {lines.length > 0 ? (
        <div className="import-table-box">
          <table className="import-table">
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Result</th>
                <th scope="col">Link, or why not</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={`${line.row}-${line.result}`} className={`import-${line.result}`}>
                  <td>{line.row}</td>
                  <td>{RESULT_WORDS[line.result]}</td>
                  <td>
                    {line.result === 'refused' ? (
                      <>
                        <code>{line.code}</code> {line.message}
                      </>
                    ) : (
                      <>
                        <strong>{line.slug ?? 'a random slug'}</strong> → <span className="import-destination">{line.destination}</span>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {unlisted > 0 ? (
        <p className="muted small">{unlisted} more rows are counted above but not listed (the first 1,000 of each are).</p>
      ) : null}
    </section>
  );
}
