import type { AppContext } from '../context'
import type { RequestCookies } from '../../lib/cookies'
import { sharedLinkFinder, type SharedLink } from '../links/find-shared-link'
import { linkState, type LinkState } from '../links/link-state'
import { asksForAddress, readerAddressOf, readerVerdict } from '../links/readers'
import { type GateReader, hasLinkCookie, readerOfCookies } from './reader-cookies'

/** A link's count of views, read live: the cached SharedLink has none (the view counter writes them). */
const LIVE_VIEWS = 'SELECT "views" FROM "links" WHERE "id" = ?'

/**
 * Turned off, expired, or used up (and the reader holds no grant): the 410 page, nothing of the document — shown
 * inside the frames of the sites the link names (`embedOrigins`), as its pages were; `expiresAt` and `language`:
 * the day an expired link ended, which every 410 of it names, in the link's language.
 */
export type GoneAccess = {
  kind: 'gone'
  state: Exclude<LinkState, 'active'>
  embedOrigins?: string
  expiresAt?: number | null
  language?: string | null
}

export type LinkAccess =
  | { kind: 'missing' }
  | GoneAccess
  | {
      kind: 'open'
      shared: SharedLink
      /**
       * The first gate the reader has yet to pass, in the order they are passed: the `password`, the `reader`'s
       * address (access email or verified-email, within the allow and deny lists), the `agreement`; null: in.
       */
      gate: Gate | null
      /** The address the reader was let in with (a link that asks for one), as visits record it. */
      reader: string | null
      /** The link has a view limit. */
      limited: boolean
      /** The reader holds this link's grant cookie (a page of the limited link was served to them). */
      granted: boolean
    }

export type Gate = 'password' | 'reader' | 'agreement'

/**
 * `slug`: null for what the path holds where no slug could be (routes/share/model.ts), never looked up. `cookies`:
 * the reader's, or none for an answer that is the same for everyone (the link's card, its password form).
 */
export type ReadLinkAccess = (input: { slug: string | null; cookies: RequestCookies }) => Promise<LinkAccess>

/**
 * What a request to `/s/<slug>…` may have of the link's document, from the link's state and the reader's
 * cookies. Disabled and expired come from the cached link; only a link with a view limit whose reader holds
 * no grant reads its live view count (one kept prepared statement), to tell `used_up`. Read once a request, before
 * its route runs (the share routes' resolve), and handed to the service that decides the answer.
 */
export function linkAccessReader(ctx: AppContext): ReadLinkAccess {
  const findSharedLink = sharedLinkFinder(ctx)
  const judge = accessJudge(ctx)
  return async ({ slug, cookies }) => judge(slug === null ? undefined : await findSharedLink(slug), cookies)
}

/**
 * What the reader's cookies open of a link found (a file's link, or a room's link with one of its documents:
 * core/rooms/find-room-document.ts, whose gates and cookies are the room link's), or `missing` for none.
 */
export function accessJudge(ctx: AppContext): (shared: SharedLink | undefined, cookies: RequestCookies) => Promise<LinkAccess> {
  return async (shared, cookies) => {
    if (!shared) return { kind: 'missing' }
    const { link } = shared
    const now = ctx.now()
    const state = linkState({ ...link, views: 0 }, now)
    if (state !== 'active')
      return { kind: 'gone', state, embedOrigins: link.embedOrigins, expiresAt: link.expiresAt, language: link.language }
    const limited = link.maxViews !== null
    const granted = limited && hasLinkCookie(ctx.signingKey, 'grant', link, cookies, now)
    if (limited && !granted) {
      const row = await ctx.db.hot.get(LIVE_VIEWS, [link.id])
      if (!row) return { kind: 'missing' } // deleted since the cached lookup
      if (linkState({ ...link, views: Number(row[0]) }, now) === 'used_up')
        return { kind: 'gone', state: 'used_up', embedOrigins: link.embedOrigins, language: link.language }
    }
    const reader = asksForAddress(link) ? admittedReader(link, readerOfCookies(ctx.signingKey, link, cookies, now)) : null
    let gate: Gate | null = null
    if (link.passwordHash !== null && !hasLinkCookie(ctx.signingKey, 'unlock', link, cookies, now)) gate = 'password'
    else if (asksForAddress(link) && reader === null) gate = 'reader'
    else if (link.agreement !== null && !hasLinkCookie(ctx.signingKey, 'agreed', link, cookies, now)) gate = 'agreement'
    return { kind: 'open', shared, gate, reader, limited, granted }
  }
}

/**
 * The reader's address when it still opens the link as it is now: proved if the link asks for that, an address
 * by today's rules (a cookie signed before them may hold a spelling they refuse), and allowed.
 */
function admittedReader(link: SharedLink['link'], reader: GateReader | undefined): string | null {
  if (!reader || (link.access === 'verified-email' && !reader.verified) || readerAddressOf(reader.address) === undefined) return null
  return readerVerdict(link, reader.address) === 'allowed' ? reader.address : null
}
