/**
 * The server's origin from what a person pastes into the options: `links.example.com`,
 * `https://links.example.com/`, or the API address `https://links.example.com/api/v1` all mean
 * `https://links.example.com`. Returns an explanation instead when it cannot be a server address.
 */
export function parseServerUrl(input: string): { origin: string } | { problem: string } {
  const trimmed = input.trim();
  if (trimmed === '') return { problem: 'Enter the address of your Shortlinks server.' };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { problem: 'This is not a web address. Example: https://links.example.com' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: 'The server address must start with http:// or https://.' };
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path !== '' && path !== '/api/v1' && path !== '/trpc') {
    return { problem: 'Enter the server address only, without a path (the extension adds it).' };
  }
  return { origin: url.origin };
}
