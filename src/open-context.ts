import type { Config } from './config'
import type { AppContext } from './core/context'
import { configuredStorage } from './data-dir/blobs'
import { restrictDatabaseFiles } from './data-dir/database-files'
import { layoutOf } from './data-dir/layout'
import { pairDatabaseWithDataDir } from './data-dir/pairing'
import { prepareDataDir } from './data-dir/prepare'
import { loadSigningSecret, sharedSigningSecret } from './data-dir/signing-secret'
import { openDb } from './db/client'
import { consoleLogger, type Logger } from './log'
import { signingKey } from './core/accounts/jwt'
import { previewCacheIn } from './core/previews/preview-cache'
import { countedBlobStore } from './core/metrics/counted-blob-store'
import { noMetrics } from './core/metrics/metrics'
import { outboxDepth } from './core/metrics/outbox-depth'
import { createLocalTempFiles } from './storage/temp-files'
import { createJobs } from './core/jobs/registry'

export type OpenedContext = AppContext & {
  /** True when this call created the signing secret, i.e. the data dir is new. */
  firstStart: boolean
  /** Lines for the operator about what opening changed (e.g. a data dir that was open to other users). */
  notices: string[]
  close: () => void
}

/**
 * Prepares the data dir (folders, migrations, pairing with the database, secret) and opens everything a
 * command needs.
 */
export async function openContext(config: Config, log: Logger = consoleLogger): Promise<OpenedContext> {
  const layout = layoutOf(config.dataDir)
  const notices = await prepareDataDir(layout)
  const database = await openDb(config.databaseUrl)
  try {
    await database.migrate()
    await restrictDatabaseFiles(config.databaseUrl)
    const { blobs, where, idHolder, sharedPreviews } = configuredStorage(layout, config)
    // Before anything is written into the data dir: a wrong database or data dir stops here.
    await pairDatabaseWithDataDir({ database, layout, blobs, blobsWhere: where, databaseUrl: config.databaseUrl, holder: idHolder })
    const { secret, created } =
      database.dialect === 'postgres'
        ? await sharedSigningSecret(database, config.jwtSecret)
        : await loadSigningSecret(layout, config.jwtSecret)
    // A registry of this context's own, only when /metrics is on: otherwise the verbs do nothing, and prom-client
    // is never loaded (~7 MiB of memory).
    const jobs = createJobs({ log, now: Date.now })
    const metrics =
      config.metricsToken === undefined
        ? noMetrics
        : (await import('./core/metrics/prometheus')).prometheusMetrics({ outboxDepth: () => outboxDepth(database), jobs: jobs.list })
    return {
      config,
      layout,
      db: database,
      blobs: metrics.enabled ? countedBlobStore(blobs, metrics) : blobs,
      previews: previewCacheIn(layout.previews, sharedPreviews, config.pageCacheSize),
      tempFiles: createLocalTempFiles(layout.tmp),
      signingKey: signingKey(secret),
      log,
      metrics,
      jobs,
      now: Date.now,
      firstStart: created,
      notices,
      close: () => {
        blobs.close?.()
        database.close()
      },
    }
  } catch (error) {
    database.close()
    throw error
  }
}
