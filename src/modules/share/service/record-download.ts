import type { AppContext } from '../../../core/context'
import type { SharedLink } from '../../../core/links/find-shared-link'
import { activeDialect } from '../../../db/dialect'
import { timeOrderedId } from '../../../lib/ids'
import type { Visit } from '../model'
import { readingToken, visitOfToken } from '../reading-token'
import { isHumanVisit, REPEAT_WINDOW_MS } from './count-view'
import { downloadedEvent, type VisitFacts } from './visit-records'
import { visitorKeys } from './visitor-salt'

/** The reader's own visit is marked downloaded, once. */
const MARK_DOWNLOADED = 'UPDATE "visits" SET "downloaded" = TRUE WHERE "id" = ? AND "link_id" = ? AND "downloaded" = FALSE'
/**
 * A download without a known visit (a direct /download link) is a visit of its own, unless the same visitor
 * key downloaded through this link within the repeat window (a browser that keeps no cookies, a retry).
 */
const INSERT_DOWNLOAD = `INSERT INTO "visits" ("id", "link_id", "file_id", "at", "visitor", "referrer_host", "device", "tracked", "viewed", "downloaded", "reading_ms")
  SELECT ?, ?, ?, ?, ?, ?, ?, ?, FALSE, TRUE, 0
  WHERE NOT EXISTS (SELECT 1 FROM "visits" WHERE "link_id" = ? AND "at" > ? AND "visitor" = ? AND "downloaded" = TRUE)`
/**
 * On PostgreSQL two requests' transactions run at once (READ COMMITTED), and the NOT EXISTS above sees only
 * visits already committed: the link's row is locked first, so downloads through one link queue and the insert,
 * a later statement, sees the one before. SQLite runs one writer at a time: there the insert alone is enough.
 */
const LOCK_LINK = 'SELECT 1 FROM "links" WHERE "id" = ? FOR UPDATE'

export type RecordDownload = (input: {
  shared: SharedLink
  visit: Visit
  facts: Omit<VisitFacts, 'visitor'>
  /** The reader's `pdfshare_visit` cookie, if any. */
  visitToken: string | undefined
  range: string | null
}) => Promise<{ newToken: string | null }>

/** A Range that starts a download (none, or from byte 0); a later range continues one already counted. */
const startsDownload = (range: string | null) => range === null || /^\s*bytes\s*=\s*0\s*-/i.test(range)

/**
 * Records a download by a human reader (the view counter's rules for who is one) that starts a download:
 * the reader's visit is marked downloaded (its cookie names it), or else a visit row is written with
 * viewed = false, downloaded = true. The `link.downloaded` event is written in the same transaction, only if
 * the download was recorded (a repeat of the same visit is not). Returns a new visit's token, for its cookie.
 */
export function downloadRecorder(ctx: AppContext): RecordDownload {
  const visitorKeyOf = visitorKeys(ctx)
  const publicUrl = ctx.config.publicUrl
  const lockFirst = activeDialect() === 'postgres'
  return async ({ shared, visit, facts, visitToken, range }) => {
    if (ctx.config.analyticsRetention === 0 || !isHumanVisit(visit) || !startsDownload(range)) return { newToken: null }
    const { link, file } = shared
    const now = ctx.now()
    const known = visitOfToken(ctx.signingKey, visitToken, link.id, now)
    if (known) {
      await ctx.sql.runGroups([
        [{ sql: MARK_DOWNLOADED, args: [known, link.id] }, downloadedEvent(publicUrl, file.ownerId, link, { id: known, at: now })],
      ])
      return { newToken: null }
    }
    const id = timeOrderedId(now)
    const visitor = await visitorKeyOf({ clientIp: visit.clientIp, userAgent: visit.userAgent, now })
    const insert = {
      sql: INSERT_DOWNLOAD,
      args: [
        id,
        link.id,
        link.fileId,
        now,
        visitor,
        facts.referrerHost,
        facts.device,
        facts.tracked,
        link.id,
        now - REPEAT_WINDOW_MS,
        visitor,
      ],
    }
    const lock = lockFirst ? [{ sql: LOCK_LINK, args: [link.id] }] : []
    const [result] = await ctx.sql.runGroups([[...lock, insert, downloadedEvent(publicUrl, file.ownerId, link, { id, at: now })]])
    if (result instanceof Error) throw result
    const inserted = result![lock.length] === 1
    return { newToken: inserted ? readingToken(ctx.signingKey, { id, linkId: link.id }, now) : null }
  }
}
