import type { LinkRow } from '../../db/tables'
import { LINK_LIMITS } from '../../shared/link-shapes'

/**
 * Which sites may show a share link's page inside a frame of theirs (`embedOrigins`, docs/share-page.md,
 * Embedding): exact origins, never a pattern. https only, since a page framed by a plain-http site could be
 * rewritten on its way to the reader; plain http only for the loopback hosts, which browsers treat as secure
 * (a development machine). The link's page then carries `frame-ancestors 'self' <origins>`, and its cookies are
 * set so that they work inside another site's frame.
 */

/** The loopback hosts a browser treats as a secure context over plain http. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

// An origin as typed: a scheme, a host and maybe a port, and at most a trailing slash. No path, query or fragment.
const ORIGIN_TEXT = /^https?:\/\/[^/?#@\s]+\/?$/i
// A host as URL writes it: letters, digits, dots and dashes (punycode for other scripts), or a bracketed IPv6
// address. Nothing a frame-ancestors source would read as a pattern (`*`) or as the end of a source.
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/

export const isLoopbackHost = (hostname: string): boolean => LOOPBACK_HOSTS.has(hostname)

/** An origin as it is kept (`https://site.example`, `https://site.example:8443`, `http://localhost:5173`), or undefined. */
export function embedOriginOf(text: string): string | undefined {
  const trimmed = text.trim()
  if (trimmed.length > LINK_LIMITS.origin || !ORIGIN_TEXT.test(trimmed) || !URL.canParse(trimmed)) return undefined
  const url = new URL(trimmed)
  if (!HOST.test(url.hostname) || url.hostname.endsWith('.')) return undefined
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return url.origin
  return undefined
}

export const EMBED_ORIGINS_RULE_TEXT = `embedOrigins must be a list of at most ${LINK_LIMITS.embedOrigins} origins such as "https://intranet.example.com" (https, no path; http only for localhost)`

/** What is wrong with `embedOrigins` as a client sends it, or undefined. */
export function embedOriginsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length > LINK_LIMITS.embedOrigins) return EMBED_ORIGINS_RULE_TEXT
  for (const entry of value) {
    if (typeof entry !== 'string' || embedOriginOf(entry) === undefined)
      return `embedOrigins must hold only origins such as "https://intranet.example.com" (https, no path, no wildcard; http only for localhost); ${JSON.stringify(entry)} is not one`
  }
  return undefined
}

/** A checked list as it is stored: its origins normalised, without repeats, one per line. */
export const storedOrigins = (entries: readonly string[]): string => [...new Set(entries.map((entry) => embedOriginOf(entry)!))].join('\n')

/** The origins of a stored list. */
export const embedOriginsOf = (stored: string): string[] => (stored === '' ? [] : stored.split('\n'))

/** The link may be framed by other sites. */
export const isEmbeddable = (link: Pick<LinkRow, 'embedOrigins'>): boolean => link.embedOrigins !== ''

/** The `frame-ancestors` sources of the link's pages: our own pages, and the origins the owner named. */
export function frameAncestorsOf(link: Pick<LinkRow, 'embedOrigins'>): string {
  return isEmbeddable(link) ? `'self' ${embedOriginsOf(link.embedOrigins).join(' ')}` : "'self'"
}

/** What a request says about where it comes from: Sec-Fetch-Dest, Sec-Fetch-Site and its Referer. */
export type FrameRequest = { fetchDest: string | null; fetchSite: string | null; referrer: string | null }

/**
 * Whether a request is a frame's navigation (Sec-Fetch-Dest iframe or frame) inside one of the sites the owner
 * named: the first one, whose Referer is a page of one of the link's origins (browsers send the embedding page's
 * origin unless it asks for none: Referrer-Policy no-referrer), or a later one that our own page made inside
 * the frame (Sec-Fetch-Site same-origin: a gate's form, the download button), which the browser showed there
 * only because the frame's site is one of them. Another site's frame of the page is refused by the browser, but
 * its request still reaches the server: it is not one of these.
 */
export function framedByAllowedOrigin(link: Pick<LinkRow, 'embedOrigins'>, request: FrameRequest): boolean {
  if (!isEmbeddable(link) || (request.fetchDest !== 'iframe' && request.fetchDest !== 'frame')) return false
  if (request.fetchSite === 'same-origin') return true
  if (!request.referrer || !URL.canParse(request.referrer)) return false
  return embedOriginsOf(link.embedOrigins).includes(new URL(request.referrer).origin)
}

/**
 * Whether cookies may be made to work inside another site's frame on this install: they must be `Secure`,
 * which a browser accepts from an https page, or from http://localhost (a secure context). Over plain http
 * elsewhere a framed page gets no cookie at all, so its gates (password, address, agreement) cannot be passed
 * inside the frame.
 */
export function crossSiteCookiesWork(publicUrl: string): boolean {
  const url = new URL(publicUrl)
  return url.protocol === 'https:' || isLoopbackHost(url.hostname)
}
