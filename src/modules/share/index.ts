import { Elysia } from 'elysia'
import type { AppContext } from '../../context'
import type { FileRow } from '../../db/schema'
import { clientIpOf } from '../../http/client-ip'
import { applyRateLimit } from '../../http/rate-limit'
import { etagOf, sendFile } from '../../http/send-file'
import { createRateLimiter } from '../../lib/rate-limiter'
import { messagePage, viewerPage, type PageContext } from './pages'
import { createPreviewService } from './previews/preview-service'
import { countView } from './service/count-view'
import { findSharedFile } from './service/find-shared-file'
import type { ViewerAssets } from './viewer-assets'

const SEEN_COOKIE = 'pdfshare_seen'

/**
 * The page's policy: scripts, styles, images, fonts and fetches from our origin only; no inline script, no
 * eval, no plugins, no framing by other sites. `blob:` images are pdf.js's decoded pictures, `data:` ones
 * the viewer stylesheet's icons.
 */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ')

/** The public share routes: /s/:slug (the viewer), its bytes, download and preview, and the viewer's assets. */
export function shareRoutes(ctx: AppContext, assets: ViewerAssets) {
  const { config } = ctx
  const page: PageContext = { publicUrl: config.publicUrl, basePath: new URL(config.publicUrl).pathname.replace(/\/$/, ''), manifest: assets.manifest }
  const previews = createPreviewService(ctx)
  const limiter = createRateLimiter({ perMinute: config.rateLimitShare })
  const robots = (visible: boolean): Record<string, string> => (visible ? {} : { 'x-robots-tag': 'noindex, nofollow' })
  const htmlResponse = (status: number, body: string, headers: Record<string, string> = {}) =>
    new Response(body, {
      status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': PAGE_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'private, no-cache',
        ...headers,
      },
    })
  // Opened directly, the PDF is a sandboxed document: no script of it can run on our origin.
  const sendSharedPdf = (request: Request, row: FileRow, disposition: 'inline' | 'attachment') =>
    sendFile(request, ctx.blobs.file(row.blobKey), {
      size: row.size,
      etag: etagOf(row.sha256),
      disposition,
      filename: row.filename,
      headers: { 'cache-control': 'private, no-cache', 'content-security-policy': 'sandbox', ...robots(row.searchEngineVisible) },
    })
  const notFound = () => htmlResponse(404, messagePage(page, 'Not found', 'This link does not lead to a document. It may have been deleted, or the address is mistyped.'), robots(false))

  return new Elysia()
    .onBeforeHandle(({ request, server, path, set }) => {
      if (path.startsWith('/s/')) applyRateLimit(limiter, clientIpOf(request, server, config.trustProxyHops), ctx.now(), set.headers)
    })
    .get('/s/:slug', async ({ request, params, server }) => {
      const row = await findSharedFile(ctx, params.slug)
      if (!row) return notFound()
      const cookiePath = `${page.basePath}/s/${row.slug}`
      const counted = await countView(ctx, {
        fileId: row.id,
        visit: {
          method: request.method,
          userAgent: request.headers.get('user-agent'),
          purpose: ['sec-purpose', 'purpose', 'x-purpose', 'x-moz'].map((name) => request.headers.get(name)).find(Boolean) ?? null,
          seenCookie: (request.headers.get('cookie') ?? '').split(/;\s*/).includes(`${SEEN_COOKIE}=1`),
          clientIp: clientIpOf(request, server, config.trustProxyHops),
        },
      })
      const secure = config.publicUrl.startsWith('https:') ? '; Secure' : ''
      const cookie = counted ? { 'set-cookie': `${SEEN_COOKIE}=1; Max-Age=1800; Path=${cookiePath}; HttpOnly; SameSite=Lax${secure}` } : undefined
      return htmlResponse(200, viewerPage(row, page), { ...robots(row.searchEngineVisible), ...cookie })
    })
    .get('/s/:slug/file', async ({ request, params }) => {
      const row = await findSharedFile(ctx, params.slug)
      return row ? sendSharedPdf(request, row, 'inline') : notFound()
    })
    .get('/s/:slug/download', async ({ request, params }) => {
      const row = await findSharedFile(ctx, params.slug)
      if (!row) return notFound()
      if (!row.allowDownload) {
        return htmlResponse(403, messagePage(page, 'Download turned off', 'The owner of this document does not offer it for download.'), robots(row.searchEngineVisible))
      }
      return sendSharedPdf(request, row, 'attachment')
    })
    .get('/s/:slug/preview.png', async ({ request, params }) => {
      const row = await findSharedFile(ctx, params.slug)
      if (!row) return notFound()
      const preview = await previews.previewOf(row)
      const etag = `"p-${row.sha256.slice(0, 24)}${preview.kind === 'placeholder' ? '-0' : ''}"`
      const headers = { 'content-type': 'image/png', 'cache-control': 'public, max-age=3600', etag, 'x-content-type-options': 'nosniff', ...robots(row.searchEngineVisible) }
      if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
      return new Response(Bun.file(preview.path), { headers })
    })
    .get('/s/*', () => notFound())
    .get('/assets/*', ({ request, params }) => assets.serve(request, params['*']) ?? new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } }))
}
