import { createApp } from '../app'
import { auditPruningJob } from '../core/audit/prune'
import { outboxPruningJob } from '../core/outbox/prune'
import { idempotencyPruningJob } from '../core/idempotency/prune'
import { visitPruningJob } from '../core/analytics/prune-visits'
import { markSweepJob } from '../core/share/visit-marks'
import { listUsers } from '../core/accounts/users/users'
import { SHARED_SWEEP_MIN_AGE_MS, sweepUnreferencedBlobs } from '../maintenance/sweep'
import { startWebhookDispatcher } from '../core/webhooks/dispatcher'
import { startMailWorker } from '../core/mail/mail-worker'
import { startNotifier } from '../core/notifications/notifier'
import type { OpenedContext } from '../open-context'
import { removeLeftoverTempFiles } from '../storage/temp-files'
import { VERSION } from '../version'
import { allowOnly, type ParsedArgs } from './args'
import { commandHint, type CliIo } from './io'
import { acquireServerLock } from './server-lock'

/** A temp file nobody has written for this long is a leftover, also when instances share the data dir. */
const SHARED_TEMP_MIN_IDLE_MS = 60 * 60 * 1000

/** Bun must never buffer or cut a body by itself: uploads are streamed and capped by our own code, with our envelope. */
const UNLIMITED_BODY = Number.MAX_SAFE_INTEGER

/**
 * `pdfshare serve`: sweep leftovers, listen, and stop cleanly on SIGINT/SIGTERM (in-flight requests finish,
 * then the database closes). The "listening" line is printed last, once everything is ready. Resolves when
 * the server has stopped.
 */
export async function serveCommand(opened: OpenedContext, args: ParsedArgs, io: CliIo): Promise<void> {
  allowOnly(args, 'serve', ['port', 'host', 'public-url'])
  // Several instances on one PostgreSQL database (and bucket) may share a data dir, and always share the
  // blobs: no lock then, and the start-up clean-ups leave alone what another instance may be writing.
  const { shared } = opened.db
  const releaseLock = shared ? async () => {} : await acquireServerLock(opened.config.dataDir)
  const leftovers = await removeLeftoverTempFiles(opened.layout.tmp, { untouchedForMs: shared ? SHARED_TEMP_MIN_IDLE_MS : 0 })
  // Local copies of the bucket's PDFs a killed instance left (storage/local-copies.ts): a cache, nothing to report.
  await removeLeftoverTempFiles(opened.layout.copies, { untouchedForMs: shared ? SHARED_TEMP_MIN_IDLE_MS : 0 })
  if (leftovers > 0) io.err(`removed ${leftovers} interrupted upload(s) from ${opened.layout.tmp}`)
  const orphans = await sweepUnreferencedBlobs(opened, { minAgeMs: shared ? SHARED_SWEEP_MIN_AGE_MS : 0 })
  if (orphans > 0) {
    io.err(
      `moved ${orphans} unreferenced blob(s) to ${opened.layout.orphans} (PDFs no file points at, e.g. left by a crash; delete them when you do not need them)`,
    )
  }

  const ctx = withActualPort(opened)
  const { config } = ctx
  let stopping = false
  const stopped = new Promise<void>((resolve) => {
    const stop = async (signal: 'SIGINT' | 'SIGTERM') => {
      if (stopping) {
        io.err(`${signal} again: exiting now`)
        process.exit(128 + (signal === 'SIGINT' ? 2 : 15))
      }
      stopping = true
      io.err(
        `${signal}: no new connections; in-flight requests get ${config.shutdownTimeout} s to finish (send ${signal} again to exit at once)`,
      )
      // Views are written before each page is sent, and webhook events with their change, so nothing needs flushing.
      let timer: Timer | undefined
      const deadline = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), config.shutdownTimeout * 1000)))
      const finished = await Promise.race([app.stop().then(() => true), deadline])
      clearTimeout(timer) // a pending timer would keep the process alive after everything has closed
      if (!finished) {
        io.err('closing the connections that are still open')
        await app.stop(true)
      }
      // Every job stops in one place; attempts in flight are cut short, and their rows come due again after the next start.
      await ctx.jobs.stopAll()
      ctx.close()
      await releaseLock()
      resolve()
    }
    process.on('SIGINT', () => void stop('SIGINT'))
    process.on('SIGTERM', () => void stop('SIGTERM'))
  })

  const app = createApp(ctx).listen({
    port: config.port,
    hostname: config.host,
    maxRequestBodySize: UNLIMITED_BODY,
    idleTimeout: config.idleTimeout,
  })
  // The jobs beside the server, never inside a request (core/jobs): the outboxes' senders, woken by the commits
  // that write them (webhooks; mail when the server can send it, PDFSHARE_SMTP_URL; the owners' notifications of
  // their readers), and the pruners and sweeps, each at start and then on its own period.
  startWebhookDispatcher(ctx)
  startMailWorker(ctx)
  startNotifier(ctx)
  // Visits, audit-log entries, finished deliveries and mails, idempotency keys past their time; marks that
  // recognise a repeat view, once their 30 minutes are over, also on links nobody visits again.
  for (const job of [visitPruningJob, auditPruningJob, outboxPruningJob, idempotencyPruningJob, markSweepJob]) ctx.jobs.start(job(ctx))
  if ((await listUsers(ctx)).length === 0) {
    io.err(
      [
        'No users yet. Create one and get an API token:',
        `  ${commandHint(config.dataDir, 'user add alice')}`,
        `  TOKEN=$(${commandHint(config.dataDir, 'token issue alice')})`,
        `  curl -H "Authorization: Bearer $TOKEN" -F file=@report.pdf ${config.publicUrl}/api/files/upload`,
        'Or give them a password and use the dashboard in a browser:',
        `  ${commandHint(config.dataDir, 'user passwd alice')}`,
        `  ${config.publicUrl}/app`,
      ].join('\n'),
    )
  }
  io.err(
    `pdfshare ${VERSION} listening on http://${config.host}:${config.port} (share links: ${config.publicUrl}, dashboard: ${config.publicUrl}/app, data: ${config.dataDir})`,
  )
  await stopped
}

/**
 * With `--port 0` the system picks the port; share links built from the default public URL must then name the
 * port actually chosen. A free port is found first (and released), because the app bakes the public URL in.
 */
function withActualPort(ctx: OpenedContext): OpenedContext {
  if (ctx.config.port !== 0) return ctx
  const probe = Bun.serve({ port: 0, hostname: ctx.config.host, fetch: () => new Response(null) })
  const port = probe.port ?? 0
  probe.stop(true)
  const publicUrl = ctx.config.publicUrl === 'http://localhost:0' ? `http://localhost:${port}` : ctx.config.publicUrl
  return { ...ctx, config: { ...ctx.config, port, publicUrl } }
}
