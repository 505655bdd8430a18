import type { AppContext } from '../context'
import type { GroupResult, SqlStatement } from '../../db/hot-sql'
import { isConstraintFailure } from '../../lib/error-codes'
import { timeOrderedId } from '../../lib/ids'
import type { Visit } from '../../routes/share/model'
import { eventSubscribers } from '../webhooks/subscribers'
import { readerEventStatements, readerNews } from '../notifications/reader-events'
import { insertVisit, visitEvents, type VisitedLink, type VisitFacts, type VisitRecord } from './visit-records'
import { isHumanVisit, SWEEP_INTERVAL_MS, sweepStatement, UNMARK, visitMarker } from './visit-marks'
import type { VisitorKeyOf } from './visitor-salt'

/**
 * The claim, right after the visit's mark and only if the mark changed a row (`onlyIfPreviousChanged`), so the link's
 * count moves only for a visit the mark made new, and only while the link is under its view limit. The check
 * and the +1 are one statement, so concurrent visits at the last view can never both pass (on PostgreSQL the
 * UPDATE waits for a concurrent one on the row and checks its condition again on what that committed).
 */
const CLAIM_LINK_VIEW = `UPDATE links SET views = views + 1
  WHERE id = ? AND (max_views IS NULL OR views < max_views)`
const ADD_FILE_VIEWS = 'UPDATE files SET views = views + ? WHERE id = ?'

/**
 * `counted`: a new view, within the link's limit. `not_counted`: not a human visit, a repeat, or over the
 * per-address bound (the page is served all the same). `limit_reached`: a new view, but the link's view
 * limit was reached first (the page must not be served).
 */
export type ViewOutcome = 'counted' | 'not_counted' | 'limit_reached'

/** The outcome, and for a `counted` view the visit recorded with it (none when analytics are off). */
export type ViewResult = { outcome: ViewOutcome; visit: Pick<VisitRecord, 'id' | 'tracked'> | null }

/**
 * What a view is of (docs/rooms.md, Views): `link`, a file link's page (its view, its file's, its visit); `room`, a
 * room link's index (the room link's view, within its view limit, and nothing of any file: no file's views, no
 * visit row, no event); `document`, a document's page in a room (the file's view, a visit of the room link and the
 * file, its `link.viewed` event and the owner's news; the room link's count and limit untouched: its view was
 * counted at its index). A document's views are marked apart (the file in the mark's visitor id), so opening
 * another document, or the index, is no repeat of it.
 */
export type ViewScope = 'link' | 'room' | 'document'

export type CountView = (input: {
  link: VisitedLink
  /** `link` when not given. */
  scope?: ViewScope
  /** The file's owner: whose webhooks get `link.viewed`. */
  ownerId: string
  visit: Visit
  /** What the analytics keep of the reader, besides the visitor key made here. */
  facts: Omit<VisitFacts, 'visitor'>
}) => Promise<ViewResult>

type Pending = {
  link: VisitedLink
  scope: ViewScope
  ownerId: string
  visitor: string
  group: SqlStatement[]
  /** The visit row written if the view counts (PDFSHARE_ANALYTICS_RETENTION > 0). */
  record: VisitRecord | null
  /** The owner has a webhook for link.viewed: the visit's event goes into the outbox with it. */
  announce: boolean
  /** The owner is told of new readers of this link (service/notifications): a reader event goes with it. */
  news: { reader: string | null; at: number } | null
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
export function createViewCounter(ctx: AppContext, visitorKeyOf: VisitorKeyOf): CountView {
  const markOf = visitMarker(ctx)
  const analytics = ctx.config.analyticsRetention > 0
  const wantsEvent = eventSubscribers(ctx)
  const finalize = finalizer(visitEvents(ctx).viewed)
  const makesNews = readerNews(ctx)
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
      groups.push([sweepStatement(now)])
    }
    try {
      const results = await ctx.db.hot.runGroups(groups, (results) => finalize(batch, results))
      // link.viewed events went into the outbox with the views: the dispatcher sends them now, not at its next poll.
      if (batch.some((pending) => pending.announce || pending.news)) ctx.jobs.wake('outbox')
      const refused = new Set<string>()
      batch.forEach((pending, i) => {
        const result = results[i]!
        // A constraint failure means the file was deleted after its page was looked up: nothing to count.
        if (result instanceof Error) {
          if (isConstraintFailure(result)) pending.resolve({ outcome: 'not_counted', visit: null })
          else pending.reject(result)
          return
        }
        const outcome = outcomeOf(result, pending.scope)
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
  return async ({ link, scope = 'link', ownerId, visit, facts }) => {
    if (!isHumanVisit(visit)) return { outcome: 'not_counted', visit: null }
    const now = ctx.now()
    const record: VisitRecord | null =
      analytics && scope !== 'room'
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
    // A room's readers are news when they open a document (the room's view has no visit to tell a new reader by).
    const news = scope !== 'room' && (await makesNews(ownerId, link)) ? { reader: facts.reader, at: now } : null
    const { visitor, statements } = markOf({
      linkId: link.id,
      clientIp: visit.clientIp,
      userAgent: visit.userAgent!,
      kind: 'view',
      now,
      ...(scope === 'document' && { document: link.fileId }),
    })
    const group =
      scope === 'document' ? statements : [...statements, { sql: CLAIM_LINK_VIEW, args: [link.id], onlyIfPreviousChanged: true }]
    return new Promise<ViewResult>((resolve, reject) => {
      if (queue.length === 0 && !flushing) setImmediate(flush)
      queue.push({ link, scope, ownerId, visitor, group, record, announce, news, resolve, reject })
    })
  }
}

/**
 * A group's changes: [mark, claim], after the link's lock if it was taken first; a document's view has no claim
 * (the room link's view limit is not its to use), so its mark alone decides.
 */
function outcomeOf(changes: number[], scope: ViewScope): ViewOutcome {
  if (scope === 'document') return changes.at(-1) === 1 ? 'counted' : 'not_counted'
  const [marked, claimed] = changes.slice(-2)
  if (claimed === 1) return 'counted'
  return marked === 1 ? 'limit_reached' : 'not_counted'
}

/**
 * What completes the group's transaction: each file's views for the visits counted, with their visit rows
 * and `link.viewed` events, and the refused visits' marks taken back.
 */
const finalizer =
  (viewedEvent: ReturnType<typeof visitEvents>['viewed']) =>
  (batch: Pending[], results: GroupResult[]): SqlStatement[] => {
    const toFiles = new Map<string, number>()
    const visits: SqlStatement[] = []
    const unmarks: SqlStatement[] = []
    batch.forEach((pending, i) => {
      const result = results[i]
      if (!Array.isArray(result)) return
      const outcome = outcomeOf(result, pending.scope)
      if (outcome === 'counted' && pending.scope !== 'room') {
        toFiles.set(pending.link.fileId, (toFiles.get(pending.link.fileId) ?? 0) + 1)
        if (pending.record) {
          visits.push(insertVisit(pending.link, pending.record))
          if (pending.announce) visits.push(viewedEvent(pending.ownerId, pending.link, pending.record))
        }
        if (pending.news)
          visits.push(
            readerEventStatements.view({
              ownerId: pending.ownerId,
              linkId: pending.link.id,
              at: pending.news.at,
              reader: pending.news.reader,
              visit: pending.record,
            }),
          )
      } else if (outcome === 'limit_reached') unmarks.push({ sql: UNMARK, args: [pending.link.id, pending.visitor] })
    })
    return [...[...toFiles].map(([id, n]) => ({ sql: ADD_FILE_VIEWS, args: [n, id] })), ...visits, ...unmarks]
  }
