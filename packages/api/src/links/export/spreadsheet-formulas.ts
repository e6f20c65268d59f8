/**
 * The CSV export's guard against spreadsheet formulas (CSV injection, OWASP's "CSV Injection"
 * page): a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to
 * LibreOffice Calc and Excel, which run it when the file is opened. Such a cell is written with a
 * `'` in front, which spreadsheets read as "text follows".
 *
 * The guard is undone exactly by our own importer, so an export imports back to the same links. A
 * value that itself starts with `'` and then (after any further `'`) a formula character gets the
 * `'` too: `'=x` is written `''=x`. So the importer removes one `'` from every cell that starts with
 * one or more `'` and then a formula character, and leaves every other cell alone; each value has
 * one written form and each written form one value (docs/import-export.md, "Spreadsheet formulas").
 */

/** What a guarded cell looks like before its `'`: any run of `'`, then a character spreadsheets take for a formula. */
const NEEDS_GUARD = /^'*[=+\-@\t\r]/;

/** What the guard writes: at least one `'`, then a formula character. */
const GUARDED = /^'+[=+\-@\t\r]/;

/** A cell's text as the default CSV export writes it: safe to open in a spreadsheet. */
export function guardFormula(value: string): string {
  return NEEDS_GUARD.test(value) ? `'${value}` : value;
}

/** A cell of our CSV export read back: the value before {@link guardFormula}. */
export function unguardFormula(value: string): string {
  return GUARDED.test(value) ? value.slice(1) : value;
}
