/**
 * Whether a countries breakdown is the plain install's: clicks, and not one of them with a
 * country. The server learns a visitor's country only from a header a trusted proxy sets
 * (`CLICK_COUNTRY_HEADER`, docs/statistics.md); without it every country is unknown, and the
 * reader is told how to enable them rather than left with a bar of "Unknown".
 */
export function countriesNeverKnown(countries: { value: string | null; clicks: number }[]): boolean {
  return countries.length > 0 && countries.every((entry) => entry.value === null);
}
