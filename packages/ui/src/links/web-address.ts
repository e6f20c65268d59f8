/**
 * An address as a person types it, completed the way a browser's address bar does: `example.com/x`
 * becomes `https://example.com/x`. Only text that starts with a host name (a dot in it, no spaces)
 * is completed; anything else is returned trimmed, for the server to refuse in its own words, so
 * the form never invents a destination the person did not mean.
 */
export function completeAddress(text: string): string {
  const address = text.trim();
  if (address === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(address)) return address;
  if (address.startsWith('//')) return `https:${address}`;
  const host = address.split(/[/?#]/, 1)[0] ?? '';
  const looksLikeHost = /^[^\s:@]+\.[^\s:@]+(:\d+)?$/.test(host) && !/\s/.test(address);
  return looksLikeHost ? `https://${address}` : address;
}
