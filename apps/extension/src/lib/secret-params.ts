/** Query parameter names that usually carry a secret: a session, a token, a key, a one-time code. */
const SECRET_NAMES = new Set([
  'session',
  'sessionid',
  'session_id',
  'sid',
  'phpsessid',
  'jsessionid',
  'token',
  'auth',
  'authorization',
  'key',
  'apikey',
  'api_key',
  'code',
  'secret',
  'password',
  'passwd',
  'pwd',
  'sig',
  'signature',
  'jwt',
  'otp',
  'ticket',
]);
/** …and names that contain one of these: `access_token`, `client_secret`, `X-Amz-Signature`, `x-amz-credential`. */
const SECRET_PARTS = /token|secret|passw|session|signature|credential/i;

/**
 * The names of the URL's query parameters that look like secrets (`?session=…`, `?token=…`,
 * `?code=…`), each once, in the URL's order. A short link is made to be shared: such a parameter
 * could let anyone with the link act as the person, so the popup offers to leave them out.
 */
export function secretParamsOf(url: string): string[] {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return [];
  }
  const names = [...new Set(params.keys())];
  return names.filter((name) => SECRET_NAMES.has(name.toLowerCase()) || SECRET_PARTS.test(name));
}

/** The URL without the named query parameters; everything else (other parameters, the fragment) as it was. */
export function withoutParams(url: string, names: readonly string[]): string {
  const parsed = new URL(url);
  const params = new URLSearchParams(parsed.search);
  for (const name of names) params.delete(name);
  parsed.search = params.toString();
  return parsed.href;
}
