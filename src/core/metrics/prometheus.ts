import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { requestSeries } from './request-series'
import { isDatabaseBusy } from '../../lib/error-codes'
import { VERSION } from '../../version'
import type { Metrics, Outbox, RenderLoad } from './metrics'
import type { JobStatus } from '../jobs/jobs'

const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const SCAN_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
const RENDER_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120]
/** Methods named as they are; any other a client may send is `OTHER`, so the label stays bounded. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * The metrics of one app, in a registry of its own (prom-client's global one would be shared by every app a
 * process holds, as tests hold several). `outboxDepth` is asked at each scrape: what waits in the outboxes is
 * in the database, and on PostgreSQL every instance sees the same rows.
 */
export function prometheusMetrics(options: {
  outboxDepth: () => Promise<Record<Outbox, number>>
  /** The job runner's states (core/jobs); none when the app runs no jobs. */
  jobs?: () => JobStatus[]
}): Metrics {
  const jobs = options.jobs ?? (() => [])
  const registry = new Registry()
  const registers = [registry]
  // Process memory, CPU, file descriptors and the event loop's lag, under their usual names (process_*, nodejs_*).
  collectDefaultMetrics({ register: registry })
  // Gauges of Node's libuv handles, which Bun does not have; their `_total` names also break Prometheus' naming
  // rules (promtool check metrics refuses them).
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
    registry.removeSingleMetric(name)
  }
  new Gauge({ name: 'pdfshare_info', help: 'The running version (always 1)', labelNames: ['version'], registers }).set(
    { version: VERSION },
    1,
  )

  // Per request: counted in plain maps (request-series.ts), handed to the registry as two metrics of its format.
  const requests = requestSeries({
    counter: 'pdfshare_http_requests_total',
    histogram: 'pdfshare_http_request_duration_seconds',
    buckets: REQUEST_BUCKETS,
  })
  for (const metric of requests.metrics) registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0])
  const uploads = new Counter({
    name: 'pdfshare_uploads_total',
    help: 'PDFs stored: new files, replacements and files received through requests',
    labelNames: ['kind'],
    registers,
  })
  const uploadBytes = new Counter({
    name: 'pdfshare_upload_bytes_total',
    help: 'Bytes of the PDFs stored',
    labelNames: ['kind'],
    registers,
  })
  const scans = new Counter({
    name: 'pdfshare_scans_total',
    help: 'Received PDFs scanned by clamd, by outcome (clean, infected: a signature found, failed: no verdict)',
    labelNames: ['outcome'],
    registers,
  })
  const scanSeconds = new Histogram({
    name: 'pdfshare_scan_duration_seconds',
    help: 'Time of a scan by clamd, the PDF sent and the answer read',
    buckets: SCAN_BUCKETS,
    registers,
  })
  const views = new Counter({
    name: 'pdfshare_views_total',
    help: 'Share-page opens that asked to count a view, by outcome',
    labelNames: ['outcome'],
    registers,
  })
  const renders = new Counter({
    name: 'pdfshare_renders_total',
    help: 'Renderer jobs (card: a link preview, page: a page image, pages: a page count) by outcome',
    labelNames: ['kind', 'outcome'],
    registers,
  })
  const renderSeconds = new Histogram({
    name: 'pdfshare_render_duration_seconds',
    help: 'Time of the renderer jobs that ran, on the renderer',
    labelNames: ['kind'],
    buckets: RENDER_BUCKETS,
    registers,
  })
  const killed = new Counter({
    name: 'pdfshare_renderers_killed_total',
    help: 'Renderer processes killed for a limit',
    labelNames: ['reason'],
    registers,
  })
  const loads = new Map<string, RenderLoad>()
  new Gauge({
    name: 'pdfshare_renderer_jobs',
    help: 'Renderer jobs running and waiting, per pool',
    labelNames: ['pool', 'state'],
    registers,
    collect() {
      for (const [pool, load] of loads) {
        const { running, waiting } = load()
        this.set({ pool, state: 'running' }, running)
        this.set({ pool, state: 'waiting' }, waiting)
      }
    },
  })
  const databaseErrors = new Counter({
    name: 'pdfshare_database_errors_total',
    help: 'Requests and scrapes (the outbox depth) that failed on the database',
    labelNames: ['kind'],
    registers,
  })
  const attempts = new Counter({
    name: 'pdfshare_outbox_attempts_total',
    help: 'Attempts to send a webhook delivery, a mail or a notification, by result (failed: given up)',
    labelNames: ['outbox', 'result'],
    registers,
  })
  new Gauge({
    name: 'pdfshare_outbox_pending',
    help: 'Webhook deliveries, mails and notifications waiting to be sent',
    labelNames: ['outbox'],
    registers,
    async collect() {
      // A scrape while the database fails still answers, without these samples (never the last ones, which
      // would say all is well): the metrics are wanted most then, the database errors among them.
      const depth = await options.outboxDepth().catch((error: unknown) => {
        databaseErrors.inc({ kind: isDatabaseBusy(error) ? 'busy' : 'other' })
        return undefined
      })
      this.reset()
      for (const [outbox, count] of Object.entries(depth ?? {})) this.set({ outbox }, count)
    },
  })
  // The jobs beside the server (core/jobs), read from the job runner at each scrape.
  new Gauge({
    name: 'pdfshare_job_passes',
    help: 'Passes of each job beside the server since it started, by result (a counter kept by the job runner)',
    labelNames: ['job', 'result'],
    registers,
    collect() {
      this.reset()
      for (const job of jobs()) {
        this.set({ job: job.name, result: 'ok' }, job.passes - job.failedPasses)
        this.set({ job: job.name, result: 'failed' }, job.failedPasses)
      }
    },
  })
  new Gauge({
    name: 'pdfshare_job_in_flight',
    help: 'Work each job has in flight (deliveries being sent)',
    labelNames: ['job'],
    registers,
    collect() {
      this.reset()
      for (const job of jobs()) this.set({ job: job.name }, job.inFlight)
    },
  })
  new Gauge({
    name: 'pdfshare_job_last_success_timestamp_seconds',
    help: 'When each job last finished a pass without an error (absent before its first)',
    labelNames: ['job'],
    registers,
    collect() {
      this.reset()
      for (const job of jobs()) if (job.lastSuccessAt !== null) this.set({ job: job.name }, job.lastSuccessAt / 1000)
    },
  })
  new Gauge({
    name: 'pdfshare_job_failing',
    help: 'Whether a job is failing: 1 while its latest pass failed',
    labelNames: ['job'],
    registers,
    collect() {
      this.reset()
      for (const job of jobs()) this.set({ job: job.name }, job.failingSince === null ? 0 : 1)
    },
  })
  const refusals = new Counter({
    name: 'pdfshare_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit',
    labelNames: ['limit'],
    registers,
  })
  const blobErrors = new Counter({
    name: 'pdfshare_blob_store_errors_total',
    help: 'Failed blob store operations',
    labelNames: ['operation'],
    registers,
  })

  return {
    enabled: true,
    request: (method, route, status, seconds) => requests.record(METHODS.has(method) ? method : 'OTHER', route, status, seconds),
    uploadStored(kind, bytes) {
      uploads.inc({ kind })
      uploadBytes.inc({ kind }, bytes)
    },
    scanned(outcome, seconds) {
      scans.inc({ outcome })
      scanSeconds.observe(seconds)
    },
    view: (outcome) => views.inc({ outcome }),
    rendered(kind, outcome, seconds) {
      renders.inc({ kind, outcome })
      if (seconds !== undefined) renderSeconds.observe({ kind }, seconds)
    },
    rendererKilled: (reason) => killed.inc({ reason }),
    watchRenderers: (pool, load) => loads.set(pool, load),
    outboxAttempt: (outbox, result) => attempts.inc({ outbox, result }),
    rateLimitRefused: (limit) => refusals.inc({ limit }),
    databaseError: (kind) => databaseErrors.inc({ kind }),
    blobStoreError: (operation) => blobErrors.inc({ operation }),
    collect: async () => ({ contentType: registry.contentType, text: await registry.metrics() }),
  }
}
