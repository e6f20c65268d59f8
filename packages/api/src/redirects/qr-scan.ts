/**
 * Whether a visit's request target (`/slug?…`, as the request line gives it) is a scan of the
 * link's QR code: its query has `qr=1` (docs/redirects.md, "QR codes and scans"). The QR code
 * encodes `short_url?qr=1`; the destination never sees the parameter, since a redirect goes to the
 * stored destination whatever the visit's query.
 *
 * On the redirect's path: a visit without a query costs one `indexOf`.
 */
export function isQrScan(target: string | undefined): boolean {
  if (target === undefined) return false;
  const query = target.indexOf('?');
  if (query < 0) return false;
  return new URLSearchParams(target.slice(query + 1)).getAll('qr').includes('1');
}
