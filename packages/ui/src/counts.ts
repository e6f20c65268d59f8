const numbers = new Intl.NumberFormat();

/** A count as every view writes it, in the reader's locale: "1,000". */
export function formatCount(value: number): string {
  return numbers.format(value);
}

/** The noun a count takes: "link" for exactly one, "links" for 0, 2 or 1,000. */
export function nounFor(value: number, one: string, many = `${one}s`): string {
  return value === 1 ? one : many;
}

/** A count with its noun: "1 link", "3 links", "1,000 clicks". */
export function countOf(value: number, one: string, many = `${one}s`): string {
  return `${formatCount(value)} ${nounFor(value, one, many)}`;
}
