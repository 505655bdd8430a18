/**
 * What the server reports to Prometheus (`GET /metrics`, on when PDFSHARE_METRICS_TOKEN is set): the parts of
 * pdfshare call these verbs where something happens, and the context carries either the Prometheus registry
 * of this app (prometheus.ts) or `noMetrics`, which does nothing, so an install without metrics pays nothing.
 */
export type Outbox = 'webhooks' | 'mail' | 'notifications'
/** A renderer's job: a link-preview card, one page image of the viewer, or counting the pages. */
export type RenderKind = 'card' | 'page' | 'pages' | 'text' | 'texts' | 'outline' | 'stamp' | 'overlay' | 'watermark'
export type RenderOutcome = 'ok' | 'failed' | 'unavailable'
/** A virus scan: no signature, a signature found, or no verdict (clamd unreachable, too slow, an error). */
export type ScanOutcome = 'clean' | 'infected' | 'failed'
export type AttemptResult = 'delivered' | 'retry' | 'failed'
/** Renders running and waiting in one renderer pool, read when Prometheus asks. */
export type RenderLoad = () => { running: number; waiting: number }

export type Metrics = {
  readonly enabled: boolean
  /** One answered request: `route` is the route's pattern (/api/files/:id), never the path asked for. */
  request(method: string, route: string, status: number, seconds: number): void
  /** A PDF stored: a new file, a replacement or a file received through a request, and its size. */
  uploadStored(kind: 'new' | 'replacement' | 'received', bytes: number): void
  /** A received PDF scanned by clamd, and what came of it (`seconds`: the whole scan, the PDF sent and the answer read). */
  scanned(outcome: ScanOutcome, seconds: number): void
  /** A share-page open that asked for a view to be counted, and what came of it. */
  view(outcome: string): void
  /** A renderer job finished (`seconds` on the renderer, for those that ran). */
  rendered(kind: RenderKind, outcome: RenderOutcome, seconds?: number): void
  /** A renderer killed for a limit: out of time or over its memory cap. */
  rendererKilled(reason: 'time' | 'memory'): void
  /** Where to read the load of a renderer pool (`first` or `second_try`). */
  watchRenderers(pool: string, load: RenderLoad): void
  /** One attempt of an outbox's worker to send a delivery or mail. */
  outboxAttempt(outbox: Outbox, result: AttemptResult): void
  /** A request refused by a rate limit (`limit`: the limit's fixed name). */
  rateLimitRefused(limit: string): void
  /** A request that failed on the database (busy: locked past the busy timeout). */
  databaseError(kind: 'busy' | 'other'): void
  /** A blob store operation that failed (local disk or bucket). */
  blobStoreError(operation: string): void
  /** The exposition in Prometheus' text format. */
  collect(): Promise<{ contentType: string; text: string }>
}

const nothing = () => {}

export const noMetrics: Metrics = {
  enabled: false,
  request: nothing,
  uploadStored: nothing,
  scanned: nothing,
  view: nothing,
  rendered: nothing,
  rendererKilled: nothing,
  watchRenderers: nothing,
  outboxAttempt: nothing,
  rateLimitRefused: nothing,
  databaseError: nothing,
  blobStoreError: nothing,
  collect: async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', text: '' }),
}
