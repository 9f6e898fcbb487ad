/**
 * Which APIs the server's import may read (VARSETD_IMPORT_SOURCES): a request names a source by
 * its URL, and the server fetches it only when the URL's origin is one the operator allows, so
 * that an import cannot be turned on the server's own network. Pure.
 */

export const DEFAULT_IMPORT_SOURCES = 'app.terraform.io';

/**
 * The allowed origins of a comma-separated list: each entry a host (`app.terraform.io`, HTTPS on
 * its default port), a host and port (`tfe.example.com:8443`), or an origin with its scheme
 * (`http://127.0.0.1:8080`); `none` allows none. Throws on an entry that is none of these.
 */
export function parseImportSources(text: string): string[] {
  const origins: string[] = [];
  if (text.trim() === 'none') return origins;
  for (const entry of text.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    let url: URL;
    try {
      url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ? entry : `https://${entry}`);
    } catch {
      throw new Error(`${entry} is not a host or an origin`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${entry}: only http and https`);
    if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || url.pathname !== '/')
      throw new Error(`${entry} is not a host or an origin (no path, query or credentials)`);
    origins.push(url.origin);
  }
  return origins;
}

/** Why `text` is not a source the server may read, or its parsed URL when it is. */
export function allowedSource(text: string, allowed: readonly string[]): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'is not an http or https URL';
  if (url.username !== '' || url.password !== '') return 'carries credentials: give the token as source.token';
  if (!allowed.includes(url.origin))
    return allowed.length === 0
      ? 'cannot be read: this server imports from no named source (VARSETD_IMPORT_SOURCES is none); upload an export instead'
      : `is not an allowed source: this server imports from ${allowed.join(', ')} only (VARSETD_IMPORT_SOURCES)`;
  return url;
}

/** A URL as the report and the audit trail name it: without credentials, query or fragment. */
export function shownSource(from: string): string {
  if (!/^https?:\/\//i.test(from)) return from;
  const url = new URL(from);
  url.username = url.password = url.search = url.hash = '';
  return url.toString().replace(/\/$/, '');
}
