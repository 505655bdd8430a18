import type { Config } from '../config'
import type { DataDirLayout } from '../data-dir/layout'
import type { Database } from '../db/database'
import type { Logger } from '../log'
import type { BlobStore } from '../storage/blob-store'
import type { TempFiles } from '../storage/temp-files'
import type { Jobs } from './jobs/jobs'
import type { Metrics } from './metrics/metrics'
import type { PreviewCache } from './previews/preview-cache'

/**
 * What every service receives: resolved config and the opened resources. Built once by
 * `openContext` (or by a test with its own temp data dir) and passed in; nothing is global. It lives in
 * core because it names core's own parts (the preview cache): core and the modules import it, it imports
 * nothing above core.
 */
export type AppContext = {
  config: Config
  layout: DataDirLayout
  /** The metadata database: its drizzle (`orm`), tables, hot statements and portable SQL (db/database.ts). */
  db: Database
  blobs: BlobStore
  /** Rendered link-preview cards by blob key (data/previews); whoever removes a blob drops its card. */
  previews: PreviewCache
  /** Uploads in flight are written here (data/tmp) before they become blobs. */
  tempFiles: TempFiles
  /** HS256 key derived from the signing secret. */
  signingKey: Uint8Array
  log: Logger
  /** What the server reports at GET /metrics; `noMetrics` unless PDFSHARE_METRICS_TOKEN is set. */
  metrics: Metrics
  /**
   * The jobs beside the server (the outbox senders, the pruners, the sweeps: core/jobs), and their wake-ups:
   * `ctx.jobs.wake('outbox')` after a commit that wrote outbox rows. A CLI command starts none.
   */
  jobs: Jobs
  /** Milliseconds since the epoch; injectable so tests can pin time. */
  now: () => number
}
