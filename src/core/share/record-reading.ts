import type { AppContext } from '../context'
import type { SqlStatement } from '../../db/hot-sql'
import { rateLimitFor } from '../limits/rate-limit'
import type { PreviewService } from '../previews/preview-service'
import { visitOfToken } from './reader-cookies'
import type { LinkAccess } from './link-access'

/** The bounds of a reading batch (docs/share-page.md's "Reading analytics" names them). */
export const READING_LIMITS = {
  bodyBytes: 8 * 1024,
  pagesPerBatch: 50,
  maxPage: 10_000,
  msPerPage: 600_000,
  /** What one page of one visit can add up to. */
  pageCapMs: 6 * 60 * 60 * 1000,
  /** A visit's reading time may exceed the wall time since its page was served by this much (clocks, delays). */
  slackMs: 10_000,
  batchesPerMinute: 60,
}

/** What a reading batch is answered: 204, or a status with a short reason. */
export type ReadingAnswer = { ok: true } | { ok: false; status: 400 | 403 | 404 | 410 | 413 | 415 | 429; reason: string }

const VISIT = 'SELECT "at", "tracked", "reading_ms" FROM "visits" WHERE "id" = ? AND "link_id" = ?'
/**
 * First in the batch's transaction: takes the visit's row lock (a no-op write), so that on PostgreSQL a
 * concurrent batch of the same visit (another instance) waits for this one and then sees its total.
 */
const LOCK_VISIT = 'UPDATE "visits" SET "reading_ms" = "reading_ms" WHERE "id" = ?'
/**
 * Adds a page's time, capped per page, only while the visit's total stays within the wall time since it began
 * (+ slack): checked inside the transaction, so concurrent batches cannot both pass.
 */
const ADD_PAGE = `INSERT INTO "visit_pages" ("visit_id", "page", "ms")
  SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM "visits" WHERE "id" = ? AND "tracked" = TRUE AND "reading_ms" + ? <= ? - "at" + ?)
  ON CONFLICT ("visit_id", "page") DO UPDATE
  SET "ms" = CASE WHEN "visit_pages"."ms" + excluded."ms" < ? THEN "visit_pages"."ms" + excluded."ms" ELSE ? END`
const SUM_PAGES = `UPDATE "visits" SET "reading_ms" = (SELECT coalesce(sum("ms"), 0) FROM "visit_pages" WHERE "visit_id" = ?) WHERE "id" = ?`

type Batch = { visit: unknown; pages: { page: number; ms: number }[] }

const refuse = (status: Exclude<ReadingAnswer, { ok: true }>['status'], reason: string): ReadingAnswer => ({ ok: false, status, reason })

/** The batch's shape, strictly: `{ visit, pages: [{ page, ms }, …] }` and nothing else; or why not. */
function parseBatch(text: string): Batch | string {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return 'the body is not JSON'
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object'
  const { visit, pages, ...rest } = body as Record<string, unknown>
  if (Object.keys(rest).length > 0) return 'only "visit" and "pages" are accepted'
  if (!Array.isArray(pages) || pages.length === 0 || pages.length > READING_LIMITS.pagesPerBatch) {
    return `pages must be an array of 1 to ${READING_LIMITS.pagesPerBatch} entries`
  }
  const seen = new Set<number>()
  for (const entry of pages) {
    if (typeof entry !== 'object' || entry === null || Object.keys(entry).sort().join() !== 'ms,page')
      return 'each page entry is { "page", "ms" }'
    const { page, ms } = entry as { page: unknown; ms: unknown }
    if (!Number.isInteger(page) || (page as number) < 1 || (page as number) > READING_LIMITS.maxPage) {
      return `page must be an integer from 1 to ${READING_LIMITS.maxPage}`
    }
    if (!Number.isInteger(ms) || (ms as number) < 0 || (ms as number) > READING_LIMITS.msPerPage) {
      return `ms must be an integer from 0 to ${READING_LIMITS.msPerPage}`
    }
    if (seen.has(page as number)) return 'a page appears twice'
    seen.add(page as number)
  }
  return { visit, pages: pages as Batch['pages'] }
}

export type RecordReading = (input: {
  /**
   * The link and what the reader's cookies open of it (link-access.ts): the reader who used a limited link's last
   * view holds its grant and is still reading, like their /file requests.
   */
  access: LinkAccess
  /** The batch's text, or why the body is refused (read only once the link is known). */
  body: () => Promise<string | { status: 400 | 413 | 415; reason: string }>
}) => Promise<ReadingAnswer>

/**
 * A reading batch from the viewer: time each page was on screen. Accepted only with a valid, unexpired
 * reading token of a tracked visit of this very link (so a reader changes only their own visit), only with
 * bounded fields, at most `batchesPerMinute` a visit, and only while the visit's reading time stays within
 * the time since its page was served, and for pages the PDF has (`pdfs.pagesOf`, once PDFium has counted them).
 * Each page's time is added up (capped), and the visit's total follows.
 */
export function readingRecorder(ctx: AppContext, pdfs: Pick<PreviewService, 'pagesOf'>): RecordReading {
  const perVisit = rateLimitFor(ctx, 'of reading batches per visit', { perMinute: READING_LIMITS.batchesPerMinute })
  return async ({ access, body: readBody }) => {
    if (access.kind === 'missing') return refuse(404, 'no such link')
    const body = await readBody()
    if (typeof body !== 'string') return refuse(body.status, body.reason)
    // A link turned off or expired since takes no more reading, nor a used-up one from a reader without its
    // grant (its password, though, is no bar: the token shows the page was served).
    if (access.kind !== 'open') return refuse(410, 'the link is no longer active')
    const { shared } = access
    const batch = parseBatch(body)
    if (typeof batch === 'string') return refuse(400, batch)
    const now = ctx.now()
    const visitId = visitOfToken(ctx.signingKey, batch.visit, shared.link.id, now)
    if (!visitId) return refuse(403, 'the reading token is not valid for this link, or has expired')
    if (!(await perVisit.hit(visitId, now))?.allowed) return refuse(429, `at most ${READING_LIMITS.batchesPerMinute} batches a minute`)
    // No page past the PDF's last (counted by PDFium; a PDF it cannot count keeps the bound of maxPage).
    const pages = await pdfs.pagesOf(shared.file)
    const beyond = pages === undefined ? undefined : batch.pages.find((entry) => entry.page > pages)
    if (beyond) return refuse(400, `page ${beyond.page} is past the document's last page (${pages})`)
    const row = await ctx.db.hot.get(VISIT, [visitId, shared.link.id])
    if (!row) return refuse(403, 'the visit is not recorded')
    const [at, tracked, readingMs] = row.map(Number) as [number, number, number]
    if (tracked !== 1) return refuse(403, 'the reader asked not to be tracked: no reading is recorded')
    const total = batch.pages.reduce((sum, page) => sum + page.ms, 0)
    if (readingMs + total > now - at + READING_LIMITS.slackMs) return refuse(400, 'more reading time than time since the page was opened')
    const cap = READING_LIMITS.pageCapMs
    const group: SqlStatement[] = [
      { sql: LOCK_VISIT, args: [visitId] },
      ...batch.pages.map((page) => ({
        sql: ADD_PAGE,
        args: [visitId, page.page, Math.min(page.ms, cap), visitId, total, now, READING_LIMITS.slackMs, cap, cap],
      })),
      { sql: SUM_PAGES, args: [visitId, visitId] },
    ]
    const [result] = await ctx.db.hot.runGroups([group])
    if (result instanceof Error) throw result
    // A concurrent batch used up the time between the check above and this transaction.
    if (result!.slice(1, -1).every((changes) => changes === 0)) return refuse(400, 'more reading time than time since the page was opened')
    return { ok: true }
  }
}
