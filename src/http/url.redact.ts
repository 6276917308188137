/**
 * Query parameters that carry a credential: API keys clients put in the URL although only the
 * Authorization header is read (api_key, key, token, access_token and their usual spellings), and
 * the artwork signature, which is itself a key to one picture.
 */
const SECRET_PARAMS = new Set([
  'api_key',
  'apikey',
  'api-key',
  'key',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'auth',
  'password',
  'secret',
  'client_secret',
  'sig',
  'signature',
  // The Subsonic API's password and token (/rest/ takes neither, but a client may send them).
  'p',
  't',
]);

export const REDACTED = '[REDACTED]';

/**
 * A parameter name as the query parser reads it: every valid %XX escape decoded (a stray '%'
 * kept, as Node's parser keeps it), '+' as a space, lowercase (clients vary the case), and any
 * [..] suffix dropped (token[]=… is still a token).
 */
function paramName(raw: string): string {
  return raw
    .replace(/\+/g, ' ')
    .replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .toLowerCase()
    .replace(/\[.*$/, '')
    .trim();
}

/** A request target fit for a log line: the value of every credential parameter replaced, the rest kept as sent. */
export function redactUrl(target: string): string {
  const q = target.indexOf('?');
  if (q < 0) return target;
  const params = target.slice(q + 1).split('&');
  let changed = false;
  for (let i = 0; i < params.length; i++) {
    const param = params[i]!;
    const eq = param.indexOf('=');
    if (eq < 0 || !SECRET_PARAMS.has(paramName(param.slice(0, eq)))) continue;
    params[i] = `${param.slice(0, eq + 1)}${REDACTED}`;
    changed = true;
  }
  return changed ? `${target.slice(0, q + 1)}${params.join('&')}` : target;
}
