import { fillWatermark } from '../links/watermark-template'
import type { SharedLink } from '../links/find-shared-link'
import { visitCookieOf, visitOfToken } from './reader-cookies'
import type { RequestCookies } from '../../lib/cookies'

/**
 * The watermark one reader's pages and downloads carry, or null when the link has none: its template with the
 * address the reader was let in with (`{email}`), today's date in UTC (`{date}`), the id of the visit their
 * cookie names (`{visit}`, as the link's analytics list it) and the link's label. A value the request does not
 * have is left out ("-" for a visit: a page fetched without opening the link's page first); a template left with
 * nothing at all draws the date, so a watermarked link never serves a page without one.
 */
export function readerWatermark(
  key: Uint8Array,
  link: Pick<SharedLink['link'], 'id' | 'label' | 'watermark'>,
  request: { reader: string | null; cookies: RequestCookies; now: number },
): string | null {
  if (link.watermark === null) return null
  const date = new Date(request.now).toISOString().slice(0, 10)
  const visit = visitOfToken(key, visitCookieOf(request.cookies), link.id, request.now) ?? '-'
  return fillWatermark(link.watermark, { email: request.reader ?? '', date, visit, label: link.label }) || date
}
