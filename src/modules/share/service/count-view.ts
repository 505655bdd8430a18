import { isbot } from 'isbot'
import type { AppContext } from '../../../core/context'
import { activeDialect } from '../../../db/dialect'
import type { GroupResult, SqlStatement } from '../../../db/hot-sql'
import { hmacSha256Base64url } from '../../../lib/hmac'
import { addressGroup } from '../../../lib/address-group'
import { isConstraintFailure } from '../../../lib/error-codes'
import { timeOrderedId } from '../../../lib/ids'
import type { Visit } from '../model'
import { eventSubscribers } from '../../../core/webhooks/subscribers'
import { insertVisit, viewedEvent, type VisitedLink, type VisitFacts, type VisitRecord } from './visit-records'
import { visitorKeys } from './visitor-salt'

/** A repeat visit by the same visitor within this window is not counted again (the README's Views: 30 minutes). */
export const REPEAT_WINDOW_MS = 30 * 60 * 1000

/**
 * Not a human visit: HEAD, prefetches and previews, requests without a User-Agent, and known crawlers,
 * link unfurlers (Slack, Discord, X, Facebook, LinkedIn, WhatsApp, Telegram…), HTTP libraries and headless
 * browsers that say so (the isbot list).
 */
export function isHumanVisit(visit: Visit): boolean {
  if (visit.method !== 'GET') return false
  if (visit.purpose && /prefetch|preview|prerender/i.test(visit.purpose)) return false
  if (!visit.userAgent?.trim()) return false
  return !isbot(visit.userAgent)
}

/** Expired marks are deleted at most this often, in the same commit as the views that come along. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000

const MARK = `INSERT INTO view_marks (link_id, visitor, seen_at) VALUES (?, ?, ?)
  ON CONFLICT (link_id, visitor) DO UPDATE SET seen_at = excluded.seen_at WHERE view_marks.seen_at <= ?`
/**
 * The same, unless the visitor's address already has `maxViewsPerAddress` live marks on this link. A visitor id starts with
 * a tag of its address (`tag.`), so the marks of one address are a range of the primary key (link, visitor).
 * A live mark is a view counted within the window, so this bounds the views one address adds to one link in
 * any window, also when it changes its User-Agent for every request.
 */
const MARK_WITHIN_ADDRESS_BOUND = `INSERT INTO view_marks (link_id, visitor, seen_at)
  SELECT ?, ?, ? WHERE (SELECT count(*) FROM view_marks WHERE link_id = ? AND visitor > ? AND visitor < ? AND seen_at > ?) < ?
  ON CONFLICT (link_id, visitor) DO UPDATE SET seen_at = excluded.seen_at WHERE view_marks.seen_at <= ?`
// The range needs visitor ids compared byte by byte: SQLite's default (BINARY) does, and on PostgreSQL the
// column has the "C" collation (pg migration 0002), so the primary key's index serves the range there too
// (with a COLLATE in the query instead, each count was a scan of the link's marks: 4.5 ms at 20,000).
/**
 * On PostgreSQL, where group commits of several requests and instances run at once (READ COMMITTED), the bound
 * above counts only marks already committed: two transactions could each add marks of one address without
 * seeing the other's. Locking the link's row first makes them queue on the link (the claim below locks it
 * anyway, until the commit), and the mark, a later statement, then counts what the one before committed.
 * SQLite runs one writer at a time: there the mark alone is enough.
 */
const LOCK_LINK = 'SELECT 1 FROM links WHERE id = ? FOR UPDATE'
/**
 * The claim, right after the mark and only if the mark changed a row (`onlyIfPreviousChanged`), so the link's
 * count moves only for a visit the mark made new, and only while the link is under its view limit. The check
 * and the +1 are one statement, so concurrent visits at the last view can never both pass (on PostgreSQL the
 * UPDATE waits for a concurrent one on the row and checks its condition again on what that committed).
 */
const CLAIM_LINK_VIEW = `UPDATE links SET views = views + 1
  WHERE id = ? AND (max_views IS NULL OR views < max_views)`
/** A mark whose claim was refused is taken back: that visitor was not served, so a later visit is not a repeat. */
const UNMARK = 'DELETE FROM view_marks WHERE link_id = ? AND visitor = ?'
const ADD_FILE_VIEWS = 'UPDATE files SET views = views + ? WHERE id = ?'
const SWEEP = 'DELETE FROM view_marks WHERE seen_at <= ?'

/**
 * `counted`: a new view, within the link's limit. `not_counted`: not a human visit, a repeat, or over the
 * per-address bound (the page is served all the same). `limit_reached`: a new view, but the link's view
 * limit was reached first (the page must not be served).
 */
export type ViewOutcome = 'counted' | 'not_counted' | 'limit_reached'

/** The outcome, and for a `counted` view the visit recorded with it (none when analytics are off). */
export type ViewResult = { outcome: ViewOutcome; visit: Pick<VisitRecord, 'id' | 'tracked'> | null }

export type CountView = (input: {
  link: VisitedLink
  /** The file's owner: whose webhooks get `link.viewed`. */
  ownerId: string
  visit: Visit
  /** What the analytics keep of the reader, besides the visitor key made here. */
  facts: Omit<VisitFacts, 'visitor'>
}) => Promise<ViewResult>

type Pending = {
  link: VisitedLink
  ownerId: string
  visitor: string
  group: SqlStatement[]
  /** The visit row written if the view counts (PDFSHARE_ANALYTICS_RETENTION > 0). */
  record: VisitRecord | null
  /** The owner has a webhook for link.viewed: the visit's event goes into the outbox with it. */
  announce: boolean
  resolve: (result: ViewResult) => void
  reject: (error: unknown) => void
}

/**
 * Counts one view if this is a human visit that is not a repeat, and resolves once the count is committed
 * (the page is sent after that, so a served page is a counted page, even across a kill -9). A visitor with
 * our cookie is a repeat; one without it is recognised by an HMAC of IP and User-Agent kept for the window.
 * One address (IPv6: one /64) adds at most `config.maxViewsPerAddress` views to a link per window, however
 * many User-Agents it claims.
 *
 * A link with a view limit (`max_views`) is claimed atomically: the visit's own `UPDATE links` adds its view
 * only while the link is under the limit, so with one view left exactly one of any number of concurrent new
 * visitors is counted; the others are `limit_reached` and their marks are taken back.
 *
 * Group commit: the visits that arrive in one turn of the event loop are written together in one transaction
 * and one fsync: per visit a mark (new or expired → it counts) and the link's claim, then one
 * `views = views + n` per file for the visits that counted. One fsync and two statements per visit capped a
 * page at ~2,000 views/s on this hardware. N concurrent distinct visitors still add exactly N, a repeat
 * inside the same group is still a repeat, and the marks and the counts commit together or not at all.
 *
 * Reading analytics ride on the same commit: each counted view's visit row (its visitor key under the day's
 * salt) and its `link.viewed` outbox rows are added by `finalize`, so a served page, its visit and its
 * webhook event commit together or not at all.
 */
export function createViewCounter(ctx: AppContext): CountView {
  const perAddress = ctx.config.maxViewsPerAddress
  const analytics = ctx.config.analyticsRetention > 0
  const visitorKeyOf = visitorKeys(ctx)
  const wantsEvent = eventSubscribers(ctx)
  const finalize = finalizer(ctx.config.publicUrl)
  const dialect = activeDialect()
  const lockFirst = dialect === 'postgres'
  let queue: Pending[] = []
  let lastSweep = 0
  // One group commit in flight at a time: the visits that arrive meanwhile make the next one. On SQLite a commit
  // is over before anything else runs anyway; on PostgreSQL a second one would only wait on the first's link
  // lock, so one larger commit costs fewer round trips than two that queue.
  let flushing = false
  const flush = async () => {
    flushing = true
    try {
      await commit()
    } finally {
      flushing = false
      if (queue.length > 0) setImmediate(flush)
    }
  }
  const commit = async () => {
    const batch = queue
    queue = []
    const now = ctx.now()
    const groups = batch.map((pending) => pending.group)
    const sweeping = now - lastSweep > SWEEP_INTERVAL_MS
    if (sweeping) {
      lastSweep = now
      groups.push([{ sql: SWEEP, args: [now - REPEAT_WINDOW_MS] }])
    }
    try {
      const results = await ctx.sql.runGroups(groups, (results) => finalize(batch, results))
      const refused = new Set<string>()
      batch.forEach((pending, i) => {
        const result = results[i]!
        // A constraint failure means the file was deleted after its page was looked up: nothing to count.
        if (result instanceof Error) {
          if (isConstraintFailure(result)) pending.resolve({ outcome: 'not_counted', visit: null })
          else pending.reject(result)
          return
        }
        const outcome = outcomeOf(result)
        const key = `${pending.link.id}\n${pending.visitor}`
        if (outcome === 'limit_reached') refused.add(key)
        if (outcome === 'counted') pending.resolve({ outcome, visit: pending.record })
        // The same visitor again in this group looks like a repeat of the refused visit: refused too.
        else pending.resolve({ outcome: outcome === 'not_counted' && refused.has(key) ? 'limit_reached' : outcome, visit: null })
      })
    } catch (error) {
      for (const pending of batch) pending.reject(error)
    }
  }
  return async ({ link, ownerId, visit, facts }) => {
    if (!isHumanVisit(visit) || visit.seenCookie) return { outcome: 'not_counted', visit: null }
    const now = ctx.now()
    const record: VisitRecord | null = analytics
      ? {
          id: timeOrderedId(now),
          at: now,
          visitor: await visitorKeyOf({ clientIp: visit.clientIp, userAgent: visit.userAgent, now }),
          ...facts,
          viewed: true,
          downloaded: false,
        }
      : null
    const announce = record !== null && (await wantsEvent(ownerId, 'link.viewed'))
    const since = now - REPEAT_WINDOW_MS
    // base64url has no '.' or '/': every id of one address sorts between `tag.` and `tag/`.
    const tag = hmac(ctx.signingKey, `address\n${addressGroup(visit.clientIp)}`).slice(0, 16)
    const visitor = `${tag}.${hmac(ctx.signingKey, `${visit.clientIp}\n${visit.userAgent}`)}`
    const mark =
      perAddress > 0
        ? { sql: MARK_WITHIN_ADDRESS_BOUND, args: [link.id, visitor, now, link.id, `${tag}.`, `${tag}/`, since, perAddress, since] }
        : { sql: MARK, args: [link.id, visitor, now, since] }
    const claim = { sql: CLAIM_LINK_VIEW, args: [link.id], onlyIfPreviousChanged: true }
    const group = lockFirst && perAddress > 0 ? [{ sql: LOCK_LINK, args: [link.id] }, mark, claim] : [mark, claim]
    return new Promise<ViewResult>((resolve, reject) => {
      if (queue.length === 0 && !flushing) setImmediate(flush)
      queue.push({ link, ownerId, visitor, group, record, announce, resolve, reject })
    })
  }
}

/** A group's changes: [mark, claim], after the link's lock if it was taken first. */
function outcomeOf(changes: number[]): ViewOutcome {
  const [marked, claimed] = changes.slice(-2)
  if (claimed === 1) return 'counted'
  return marked === 1 ? 'limit_reached' : 'not_counted'
}

/**
 * What completes the group's transaction: each file's views for the visits counted, with their visit rows
 * and `link.viewed` events, and the refused visits' marks taken back.
 */
const finalizer =
  (publicUrl: string) =>
  (batch: Pending[], results: GroupResult[]): SqlStatement[] => {
    const toFiles = new Map<string, number>()
    const visits: SqlStatement[] = []
    const unmarks: SqlStatement[] = []
    batch.forEach((pending, i) => {
      const result = results[i]
      if (!Array.isArray(result)) return
      const outcome = outcomeOf(result)
      if (outcome === 'counted') {
        toFiles.set(pending.link.fileId, (toFiles.get(pending.link.fileId) ?? 0) + 1)
        if (pending.record) {
          visits.push(insertVisit(pending.link, pending.record))
          if (pending.announce) visits.push(viewedEvent(publicUrl, pending.ownerId, pending.link, pending.record))
        }
      } else if (outcome === 'limit_reached') unmarks.push({ sql: UNMARK, args: [pending.link.id, pending.visitor] })
    })
    return [...[...toFiles].map(([id, n]) => ({ sql: ADD_FILE_VIEWS, args: [n, id] })), ...visits, ...unmarks]
  }

const hmac = hmacSha256Base64url
