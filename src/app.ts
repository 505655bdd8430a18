import { senderRoutes } from './routes/sender'
import { Elysia } from 'elysia'
import { assetRoutes } from './assets'
import { loadViewerAssets, type ViewerAssets } from './assets/viewer-assets'
import type { AppContext } from './core/context'
import { createPreviewService } from './core/previews/preview-service'
import { authGuard } from './http/auth-guard'
import { requestLifecycle, requestNotes } from './http/lifecycle'
import { analyticsRoutes } from './routes/analytics'
import { authRoutes } from './routes/auth'
import { dashboardRoutes } from './routes/dashboard'
import { filesRoutes } from './routes/files'
import { linksRoutes } from './routes/links'
import { requestsRoutes } from './routes/requests'
import { roomsRoutes } from './routes/rooms'
import { searchRoutes } from './routes/search'
import { startIndexing } from './core/search/index-job'
import { teamsRoutes } from './routes/teams'
import { shareRoutes } from './routes/share'
import { languageRoutes } from './routes/language'
import { systemRoutes } from './routes/system'
import { webhooksRoutes } from './routes/webhooks'
import { auditRoutes } from './routes/audit'
import { adminRoutes } from './routes/admin'
import { brandingRoutes } from './routes/branding'
import { twoFactorRoutes } from './routes/two-factor'
import { passkeyRoutes } from './routes/passkeys'
import { mailRoutes } from './routes/mail'
import { readersRoutes } from './routes/readers'
import { notificationsRoutes } from './routes/notifications'
import { metricsRoutes } from './routes/metrics'

/**
 * The whole HTTP application, built from an already-opened context. It never listens by itself:
 * `pdfshare serve` hands `app.fetch` to Bun.serve, tests call `app.handle(new Request(…))`.
 */
export function createApp(ctx: AppContext, assets: ViewerAssets = loadViewerAssets()) {
  const notes = requestNotes()
  const auth = authGuard(ctx, notes)
  // One set of renderers for the link cards and page images, which new PDFs (files) have drawn ahead.
  const previews = createPreviewService(ctx)
  // The page-text index is read by the same background renderer (core/search), after the PDFs drawn ahead.
  const indexing = startIndexing(ctx, previews)
  // No schema uses t.Transform, so encoding responses through the schema would only cost time (BENCHMARKS.md, Design measurements).
  return new Elysia({ encodeSchema: false })
    .onStop(async () => {
      // The renderers first: a read of the index in flight then ends at once (the server is stopping, and its file
      // stays pending), where waiting for it held the stop for up to a render's time limit.
      const closing = previews.close()
      await indexing.stop()
      await closing
    })
    .use(requestLifecycle(ctx.log, ctx.metrics, notes))
    .use(systemRoutes(ctx.config.publicUrl, () => ctx.blobs.health?.() ?? 'ok', ctx.jobs.list))
    .use(metricsRoutes(ctx))
    .use(authRoutes(ctx, auth))
    .use(
      filesRoutes(ctx, auth, {
        // A new current PDF: page 1 drawn ahead, and the search index told it has a file to read.
        drawAhead(row) {
          previews.drawAhead(row)
          indexing.nudge()
        },
      }),
    )
    .use(searchRoutes(ctx, auth))
    .use(linksRoutes(ctx, auth))
    .use(requestsRoutes(ctx, auth))
    .use(roomsRoutes(ctx, auth))
    .use(teamsRoutes(ctx, auth))
    .use(webhooksRoutes(ctx, auth))
    .use(auditRoutes(ctx, auth))
    .use(adminRoutes(ctx, auth))
    .use(brandingRoutes(ctx, auth))
    .use(twoFactorRoutes(ctx, auth))
    .use(passkeyRoutes(ctx, auth))
    .use(mailRoutes(ctx, auth))
    .use(analyticsRoutes(ctx, auth))
    .use(readersRoutes(ctx, auth))
    .use(notificationsRoutes(ctx, auth))
    .use(shareRoutes(ctx, assets.manifest, previews))
    .use(senderRoutes(ctx, assets.manifest))
    .use(languageRoutes(ctx))
    .use(dashboardRoutes(ctx, assets.manifest))
    .use(assetRoutes(assets))
}

export type App = ReturnType<typeof createApp>
