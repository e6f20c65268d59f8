/**
 * Whether a countries breakdown has clicks, and not one of them with a country. The server finds
 * a visitor's country in its IP database, or in a header a trusted proxy sets
 * (`CLICK_COUNTRY_HEADER`, docs/statistics.md); behind a proxy it does not trust, every address it
 * sees is the proxy's (private), every country is unknown, and the reader is told how to fix that
 * rather than left with a bar of "Unknown".
 */
export function countriesNeverKnown(countries: { value: string | null; clicks: number }[]): boolean {
  return countries.length > 0 && countries.every((entry) => entry.value === null);
}
