import { isbot } from 'isbot'
import type { Job } from '../jobs/jobs'
import type { AppContext } from '../context'
import type { SqlStatement } from '../../db/hot-sql'
import { addressGroup } from '../../lib/address-group'
import { hmacSha256Base64url } from '../../lib/hmac'
import type { Visit } from '../../routes/share/model'

/** A repeat visit by the same visitor within this window is not counted again (docs/share-page.md, Views: 30 minutes). */
export const REPEAT_WINDOW_MS = 30 * 60 * 1000

/**
 * Not a human visit: HEAD, prefetches and previews, requests without a User-Agent, and known crawlers,
 * link unfurlers (Slack, Discord, X, Facebook, LinkedIn, WhatsApp, Telegram…), HTTP libraries and headless
 * browsers that say so (the isbot list). And, where the browser says what a request is for (Sec-Fetch-*),
 * anything but a top-level navigation: another site's `<img>`, `<iframe>`, script or fetch of the link would
 * otherwise count a view (and use up a limited link) for every visitor of that site.
 */
export function isHumanVisit(visit: Visit): boolean {
  if (visit.method !== 'GET') return false
  if (visit.purpose && /prefetch|preview|prerender/i.test(visit.purpose)) return false
  if (visit.fetchMode !== null && visit.fetchMode !== 'navigate') return false
  if (visit.fetchDest !== null && visit.fetchDest !== 'document') return false
  if (!visit.userAgent?.trim()) return false
  return !isbot(visit.userAgent)
}

/**
 * The same for a download (`/download`): a navigation too, but a browser may call its destination `empty`
 * when the link asks for a download (`<a download>`).
 */
export function isHumanDownload(visit: Visit): boolean {
  return isHumanVisit({ ...visit, fetchDest: visit.fetchDest === 'empty' ? null : visit.fetchDest })
}

const MARK = `INSERT INTO view_marks (link_id, visitor, seen_at) VALUES (?, ?, ?)
  ON CONFLICT (link_id, visitor) DO UPDATE SET seen_at = excluded.seen_at WHERE view_marks.seen_at <= ?`
/**
 * The same, unless the visitor's address already has `maxViewsPerAddress` live marks on this link. A visitor id starts with
 * a tag of its address (`tag.`), so the marks of one address are a range of the primary key (link, visitor).
 * A live mark is a visit counted within the window, so this bounds the visits one address adds to one link in
 * any window, also when it changes its User-Agent for every request.
 */
const MARK_WITHIN_ADDRESS_BOUND = `INSERT INTO view_marks (link_id, visitor, seen_at)
  SELECT ?, ?, ? WHERE (SELECT count(*) FROM view_marks WHERE link_id = ? AND visitor > ? AND visitor < ? AND seen_at > ?) < ?
  ON CONFLICT (link_id, visitor) DO UPDATE SET seen_at = excluded.seen_at WHERE view_marks.seen_at <= ?`
// The range needs visitor ids compared byte by byte: SQLite's default (BINARY) does, and on PostgreSQL the
// column has the "C" collation (pg migration 0002), so the primary key's index serves the range there too
// (with a COLLATE in the query instead, each count was a scan of the link's marks: 4.5 ms at 20,000).
/** A mark taken back: its visit was not served, so a later visit is not a repeat. */
export const UNMARK = 'DELETE FROM view_marks WHERE link_id = ? AND visitor = ?'
const SWEEP = 'DELETE FROM view_marks WHERE seen_at <= ?'

/** A visit's mark: the visitor's id, and the statements whose last changes one row if the visit is new and within the bound. */
export type VisitMark = { visitor: string; statements: SqlStatement[] }

/**
 * Marks a visit of a link by one visitor (an HMAC of address and User-Agent, under the address's tag) for the
 * repeat window: a view of the page, or a download that came without a visit of the page (`download`, a
 * visitor id of its own, so it does not make a later view a repeat). Both share the bound of
 * `config.maxViewsPerAddress` live marks per address and link.
 */
export function visitMarker(ctx: AppContext) {
  const perAddress = ctx.config.maxViewsPerAddress
  // Where group commits of several requests and instances run at once (PostgreSQL, READ COMMITTED), the bound
  // counts only marks already committed: two transactions could each add marks of one address without seeing
  // the other's. The link's row is locked first, so they queue on the link (the claim of a view locks it anyway,
  // until the commit), and the mark, a later statement, counts what the one before committed.
  const lockFirst = (linkId: string) => (perAddress > 0 ? ctx.db.portable.lockLink(linkId) : [])
  return (input: {
    linkId: string
    clientIp: string
    userAgent: string
    kind: 'view' | 'download'
    now: number
    /** A room link's document (its file id): its views are marked, and bounded per address, apart from the room's. */
    document?: string
  }): VisitMark => {
    const { linkId, now } = input
    const since = now - REPEAT_WINDOW_MS
    const of = input.document === undefined ? '' : `\ndocument\n${input.document}`
    // base64url has no '.' or '/': every id of one address sorts between `tag.` and `tag/`.
    const tag = hmacSha256Base64url(ctx.signingKey, `address\n${addressGroup(input.clientIp)}${of}`).slice(0, 16)
    const who = `${input.kind === 'download' ? 'download\n' : ''}${input.clientIp}\n${input.userAgent}${of}`
    const visitor = `${tag}.${hmacSha256Base64url(ctx.signingKey, who)}`
    const mark =
      perAddress > 0
        ? { sql: MARK_WITHIN_ADDRESS_BOUND, args: [linkId, visitor, now, linkId, `${tag}.`, `${tag}/`, since, perAddress, since] }
        : { sql: MARK, args: [linkId, visitor, now, since] }
    return { visitor, statements: [...lockFirst(linkId), mark] }
  }
}

/** Expired marks are deleted at least this often: with the views that come along, and by `startMarkSweeps`. */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000

/** The statement that deletes the marks that have left the repeat window by `now`. */
export function sweepStatement(now: number): SqlStatement {
  return { sql: SWEEP, args: [now - REPEAT_WINDOW_MS] }
}

/**
 * Deletes expired marks every SWEEP_INTERVAL_MS (a job of `pdfshare serve`), so none outlives its window by more
 * than that, also on a link nobody visits again: a mark is an HMAC of an address and a User-Agent.
 */
export function markSweepJob(ctx: AppContext, everyMs = SWEEP_INTERVAL_MS): Job {
  return {
    name: 'sweep view marks',
    everyMs,
    async pass() {
      await ctx.db.hot.runGroups([[sweepStatement(ctx.now())]])
    },
    failed: (error) => ctx.log.error('could not delete expired view marks', error),
  }
}
