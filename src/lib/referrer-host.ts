/** The longest host name DNS allows: anything longer is not one. */
const MAX_HOST_LENGTH = 253

/**
 * The host of a Referer header, lower-cased, and nothing else of it (no scheme, path, query or port): only
 * http(s) referrers, and none when the reader came from `ownHost` itself (a page of this server) or sent
 * nothing (direct, or a browser that hides the referrer).
 */
export function referrerHostOf(referer: string | null, ownHost: string): string | null {
  if (!referer || !URL.canParse(referer)) return null
  const url = new URL(referer)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  const host = url.hostname.toLowerCase()
  if (host === '' || host.length > MAX_HOST_LENGTH || url.host.toLowerCase() === ownHost.toLowerCase()) return null
  return host
}
