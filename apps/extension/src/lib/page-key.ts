/**
 * The page a URL shows, as the popup looks for that page's link: the URL without its `utm_*`
 * parameters and without an anchor (`#section`), so that shortening a page again after changing
 * the link's UTM, or from further down the page, finds the same link (docs/extension.md). A
 * fragment that routes (`#/inbox`, `#!/inbox`: single-page apps) is part of the page and kept.
 * The query is written the same way on both sides (as `URLSearchParams` writes it), so a
 * destination the server re-wrote when it merged UTM values still matches the tab's address.
 */
export function pageKeyOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const params = new URLSearchParams(parsed.search);
  for (const name of [...params.keys()]) if (name.toLowerCase().startsWith('utm_')) params.delete(name);
  parsed.search = params.toString();
  if (!/^#[/!]/.test(parsed.hash)) parsed.hash = '';
  return parsed.href;
}
