/**
 * Whether a request says it was sent by another site: for the forms that change what a reader's cookies allow
 * (a share link's password, address, code and agreement), which another site must not post in the reader's name.
 * A browser's own word first: `Sec-Fetch-Site: cross-site` is refused, any other value (`same-origin`, `same-site`,
 * `none`) is not. A browser without Fetch Metadata still sends `Origin` on a POST: one naming another origin than
 * the public URL's (or the Host the request came to) is refused, and so is nothing else — `Origin: null` is what a
 * same-origin form of a no-referrer page sends. A request with neither header (an old browser, curl) is not
 * refused: only an explicit cross-site one is.
 */
export function isCrossSite(request: Request, ownOrigin: string): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site !== null) return site === 'cross-site'
  const origin = request.headers.get('origin')
  if (origin === null || origin === 'null' || origin === ownOrigin) return false
  const host = request.headers.get('host')
  return host === null || URL.parse(origin)?.host !== host
}
