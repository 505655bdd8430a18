import { t } from 'elysia'
import { isWellFormedId } from '../../lib/ids'

/**
 * The share module's shapes. Its routes take no JSON bodies and answer HTML and bytes (they are kept out of the
 * OpenAPI document): the schemas of their params, and the types its parts pass around.
 */

/**
 * A link's slug as the path holds it: the slug, or null where the path holds text no slug could be (not an id,
 * or not decodable: Elysia gives null for `%ZZ`). Null is never looked up, and is answered as a link that does not
 * exist (the 404 page, whatever the route), so the schema refuses nothing: what a route answers for a slug that
 * is not one stays the same page as for one that is not there.
 */
const Slug = t
  .Transform(t.Union([t.String(), t.Null()]))
  .Decode((text) => (text !== null && isWellFormedId(text) ? text : null))
  .Encode((slug) => slug ?? '')

/**
 * A page's number as the path holds it: a whole number from 1 (at most six digits, written without a leading 0),
 * or null for anything else, which the page routes refuse (400) once the link's own answer is known: a reader
 * of a closed link learns that first, as for a page that exists.
 */
const PageNumber = t
  .Transform(t.Union([t.String(), t.Null()]))
  .Decode((text) => (text !== null && /^[1-9]\d{0,5}$/.test(text) ? Number(text) : null))
  .Encode((page) => (page === null ? '' : String(page)))

/** The params of a link's routes, `/s/:slug…`. */
export const LinkParams = t.Object({ slug: Slug })
/** The params of a page's image and text, `/s/:slug/pages/:page…`. */
export const PageParams = t.Object({ slug: Slug, page: PageNumber })

/** The params of a room link's document routes, `/s/:slug/docs/:fileId…` (docs/rooms.md); a fileId that is not an id: null. */
export const RoomDocumentParams = t.Object({ slug: Slug, fileId: Slug })
/** The params of a room document's page image and text, `/s/:slug/docs/:fileId/pages/:page…`. */
export const RoomDocumentPageParams = t.Object({ slug: Slug, fileId: Slug, page: PageNumber })

/** What a request says about itself, for deciding whether it is a human visit. */
export type Visit = {
  method: string
  userAgent: string | null
  /** Sec-Purpose, Purpose, X-Purpose or X-Moz: how browsers mark prefetches and previews. */
  purpose: string | null
  /**
   * Sec-Fetch-Mode and Sec-Fetch-Dest, which browsers send with every request: a page opened by a reader is
   * `navigate` to a `document`; an `<img>`, `<iframe>`, script or fetch of another site's page is not.
   */
  fetchMode: string | null
  fetchDest: string | null
  /** Sec-Fetch-Site and the Referer: whether a frame's request comes from a site the link may be framed by. */
  fetchSite: string | null
  referrer: string | null
  clientIp: string
}
