import type { AppContext } from '../context'
import { framedByAllowedOrigin } from '../links/embed-origins'
import type { SharedLink } from '../links/find-shared-link'
import { readerEventStatements, readerNews } from '../notifications/reader-events'
import { timeOrderedId } from '../../lib/ids'
import type { Visit } from '../../routes/share/model'
import { readingToken, visitCookieOf, visitOfToken } from './reader-cookies'
import type { RequestCookies } from '../../lib/cookies'
import { insertVisit, visitEvents, type VisitFacts } from './visit-records'
import { isHumanDownload, visitMarker } from './visit-marks'
import type { VisitorKeyOf } from './visitor-salt'

/** The reader's own visit is marked downloaded, once. */
const MARK_DOWNLOADED = 'UPDATE "visits" SET "downloaded" = TRUE WHERE "id" = ? AND "link_id" = ? AND "downloaded" = FALSE'

export type RecordDownload = (input: {
  shared: SharedLink
  visit: Visit
  facts: Omit<VisitFacts, 'visitor'>
  /** The request's cookies: its `pdfshare_visit` names the reader's visit, if there was one. */
  cookies: RequestCookies
  range: string | null
}) => Promise<{ newToken: string | null }>

/** A Range that starts a download (none, or from byte 0); a later range continues one already counted. */
const startsDownload = (range: string | null) => range === null || /^\s*bytes\s*=\s*0\s*-/i.test(range)

/**
 * Records a download by a human reader (the view counter's rules for who is one) that starts a download:
 * the reader's visit is marked downloaded (its cookie names it), or else a visit row is written with
 * viewed = false, downloaded = true — a visit of its own, marked like a view (service/visit-marks.ts): not
 * again by the same visitor within the repeat window, and within the per-address bound, which views and such
 * downloads share. The `link.downloaded` event is written in the same transaction, only if the download was
 * recorded (not a repeat, not over the bound). Returns a new visit's token, for its cookie.
 */
export function downloadRecorder(ctx: AppContext, visitorKeyOf: VisitorKeyOf): RecordDownload {
  const markOf = visitMarker(ctx)
  const events = visitEvents(ctx)
  const makesNews = readerNews(ctx)
  return async ({ shared, visit, facts, cookies, range }) => {
    const { link, file } = shared
    // The download button of a page shown in a frame on one of the link's sites navigates that frame.
    const asked = framedByAllowedOrigin(link, visit) ? { ...visit, fetchDest: null } : visit
    if (ctx.config.analyticsRetention === 0 || !isHumanDownload(asked) || !startsDownload(range)) return { newToken: null }
    const now = ctx.now()
    const known = visitOfToken(ctx.signingKey, visitCookieOf(cookies), link.id, now)
    // A download is news for the owner when it is recorded: right after the statement that records it, and before
    // the webhook's event, which checks the statement before it in turn (this one changed a row if that one did).
    const news = (await makesNews(file.ownerId, link))
      ? [readerEventStatements.other('download', { ownerId: file.ownerId, linkId: link.id, at: now, reader: facts.reader }, true)]
      : []
    if (known) {
      await ctx.db.hot.runGroups([
        [{ sql: MARK_DOWNLOADED, args: [known, link.id] }, ...news, events.downloaded(file.ownerId, link, { id: known, at: now })],
      ])
      ctx.jobs.wake('outbox')
      return { newToken: null }
    }
    const id = timeOrderedId(now)
    const visitor = await visitorKeyOf({ clientIp: visit.clientIp, userAgent: visit.userAgent, now })
    const mark = markOf({
      linkId: link.id,
      clientIp: visit.clientIp,
      userAgent: visit.userAgent!,
      kind: 'download',
      now,
      // A room link's document: marked apart from the room's other documents (count-view.ts, ViewScope).
      ...(link.roomId !== null && { document: link.fileId }),
    })
    const record = { id, at: now, visitor, ...facts, viewed: false, downloaded: true }
    const insert = { ...insertVisit(link, record), onlyIfPreviousChanged: true }
    const [result] = await ctx.db.hot.runGroups([
      [...mark.statements, insert, ...news, events.downloaded(file.ownerId, link, { id, at: now })],
    ])
    if (result instanceof Error) throw result
    ctx.jobs.wake('outbox') // link.downloaded, if it was written: sent now, not at the dispatcher's next poll
    const inserted = result![mark.statements.length] === 1
    return { newToken: inserted ? readingToken(ctx.signingKey, { id, linkId: link.id }, now) : null }
  }
}
