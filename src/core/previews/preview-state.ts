import { existsSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { createSingleFlight } from '../../lib/concurrency'
import type { AppContext } from '../context'
import { type PagesRows, pagesRows, REMEMBERED_ROWS } from './pages-rows'

/** What a card is made of: the file's blob, and its id for the log line of a failure. */
type CardFile = { id: string; blobKey: string }

/** A blob's card as this instance finds it: rendered (a PNG on disk), or its failure remembered, with the reason. */
export type KnownCard = { kind: 'rendered'; path: string } | { kind: 'failed'; reason: string }

/** What happens once per blob and process: a slow PDF's second try, page 1 drawn ahead. */
type OncePerBlob = 'second try' | 'draw ahead'

/** A failure to start a renderer is logged at most this often. */
const UNAVAILABLE_LOG_MS = 60_000

/**
 * Everything the preview service keeps, each piece in one place with its verbs, so that the service is only the
 * order things happen in: the PDFs' page rows (pages-rows.ts); the work in flight that concurrent requests share
 * (a blob's card, its page count, its sizes); the cards and their remembered failures on disk and in the bucket;
 * what is done once per blob and process; when a renderer's absence was last logged.
 */
export type PreviewState<Card> = {
  rows: PagesRows
  /** Concurrent requests for one blob's card share one render. */
  rendering(blobKey: string, render: () => Promise<Card>): Promise<Card>
  /** Concurrent requests for one blob's page count share one count, as reads of its pages' sizes share one read. */
  counting(blobKey: string, count: () => Promise<number | undefined>): Promise<number | undefined>
  sizing(blobKey: string, read: () => Promise<string>): Promise<string>
  /** The blob's card on this disk, else brought from the bucket; undefined when it was never rendered. */
  cardOf(blobKey: string): Promise<KnownCard | undefined>
  /** A card just rendered on this disk: kept in the bucket too. */
  rendered(row: CardFile): Promise<void>
  /**
   * Remembers that the blob's card cannot be rendered, for that version of the PDF: a `.failed` mark beside the
   * cards holding `reason`, kept in the bucket too.
   */
  failed(row: CardFile, reason: string): Promise<void>
  /** Forgets that failure: the PDF rendered after all (a slow PDF's second try). */
  recovered(blobKey: string): Promise<void>
  /**
   * True the first time `what` is asked for a blob in this process (and false after, for the latest
   * REMEMBERED_ROWS blobs); `again` lets the next call have it once more (what stopped it was our trouble).
   */
  firstTime(what: OncePerBlob, blobKey: string): boolean
  again(what: OncePerBlob, blobKey: string): void
  /** Whether a renderer that could not start is worth a log line now: at most one every UNAVAILABLE_LOG_MS. */
  unavailableLogDue(): boolean
}

export function previewState<Card>(ctx: Pick<AppContext, 'db' | 'log' | 'previews' | 'now'>): PreviewState<Card> {
  const done = { 'second try': new Set<string>(), 'draw ahead': new Set<string>() }
  let unavailableLoggedAt = -Infinity
  // The card is served from this disk either way; a bucket that refuses it only costs the others a render.
  const share = (row: CardFile, kind: 'png' | 'failed') =>
    ctx.previews.push(row.blobKey, kind).catch((error) => ctx.log.error(`preview of file ${row.id}: not kept in the bucket: ${error}`))
  const onDisk = async (blobKey: string): Promise<KnownCard | undefined> => {
    const path = ctx.previews.pathOf(blobKey)
    const mark = ctx.previews.pathOf(blobKey, 'failed')
    if (existsSync(path)) return { kind: 'rendered', path }
    if (existsSync(mark)) return { kind: 'failed', reason: await readFile(mark, 'utf8').catch(() => '') }
    return undefined
  }
  return {
    rows: pagesRows(ctx),
    rendering: createSingleFlight<Card>(),
    counting: createSingleFlight<number | undefined>(),
    sizing: createSingleFlight<string>(),
    async cardOf(blobKey) {
      return (await onDisk(blobKey)) ?? ((await ctx.previews.pull(blobKey).catch(() => false)) ? onDisk(blobKey) : undefined)
    },
    rendered: (row) => share(row, 'png'),
    async failed(row, reason) {
      await writeFile(ctx.previews.pathOf(row.blobKey, 'failed'), `${reason}\n`).catch(() => {})
      await share(row, 'failed')
    },
    recovered: (blobKey) => rm(ctx.previews.pathOf(blobKey, 'failed'), { force: true }),
    firstTime(what, blobKey) {
      const blobs = done[what]
      if (blobs.has(blobKey)) return false
      if (blobs.size >= REMEMBERED_ROWS) blobs.delete(blobs.values().next().value!)
      blobs.add(blobKey)
      return true
    },
    again: (what, blobKey) => done[what].delete(blobKey),
    unavailableLogDue() {
      if (ctx.now() - unavailableLoggedAt < UNAVAILABLE_LOG_MS) return false
      unavailableLoggedAt = ctx.now()
      return true
    },
  }
}
