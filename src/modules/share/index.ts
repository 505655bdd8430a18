import { Elysia } from 'elysia'
import type { AppContext } from '../../context'
import { clientGroupOf, clientIpOf } from '../../http/client-ip'
import { applyRateLimit, loggedRateLimiter } from '../../http/rate-limit'
import { contentDisposition, etagOf, sendFile, takeSetHeaders } from '../../http/send-file'
import { messagePage, viewerPage, type PageContext } from './pages'
import { createPreviewService } from './previews/preview-service'
import { createViewCounter } from './service/count-view'
import { sharedFileFinder, type SharedFile } from './service/find-shared-file'
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

/** The raw PDF (/file, /download): sandboxed, and framed by our own pages only. */
const FILE_CSP = "sandbox; frame-ancestors 'self'"

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'private, no-cache',
}

type ResponseSet = { status?: number | string; headers: Record<string, string | number> }

/** The public share routes: /s/:slug (the viewer), its bytes, download and preview, and the viewer's assets. */
export function shareRoutes(ctx: AppContext, assets: ViewerAssets) {
  const { config } = ctx
  const page: PageContext = { publicUrl: config.publicUrl, basePath: new URL(config.publicUrl).pathname.replace(/\/$/, ''), manifest: assets.manifest }
  const previews = createPreviewService(ctx)
  const countView = createViewCounter(ctx)
  const findSharedFile = sharedFileFinder(ctx)
  const limiter = loggedRateLimiter('per address on /s/*', config.rateLimitShare, ctx.log)
  const robots = (visible: boolean): Record<string, string> => (visible ? {} : { 'x-robots-tag': 'noindex, nofollow' })
  // Pages are returned as strings with their headers on `set`: a Response built here would be copied again
  // by Elysia to merge the common headers in, which was a third of a page's CPU time in the profile.
  const html = (set: ResponseSet, status: number, body: string, headers: Record<string, string> = {}) => {
    set.status = status
    Object.assign(set.headers, PAGE_HEADERS, headers)
    return body
  }
  // A row stays the same object while the slug cache holds it, so its headers are built once per version.
  const fileHeaders = new WeakMap<SharedFile, Record<'inline' | 'attachment', Record<string, string>>>()
  const headersOf = (row: SharedFile, disposition: 'inline' | 'attachment') => {
    let built = fileHeaders.get(row)
    if (!built) {
      // Opened directly, the PDF is a sandboxed document: no script of it can run on our origin. No other
      // site may frame it: there the browser's own PDF viewer would run the PDF's scripts inside their page.
      const common = { 'cache-control': 'private, no-cache', 'content-security-policy': FILE_CSP, ...robots(row.searchEngineVisible) }
      built = {
        inline: { ...common, 'content-disposition': contentDisposition(row.filename, 'inline') },
        attachment: { ...common, 'content-disposition': contentDisposition(row.filename, 'attachment') },
      }
      fileHeaders.set(row, built)
    }
    return built[disposition]
  }
  const sendSharedPdf = (request: Request, set: ResponseSet, row: SharedFile, disposition: 'inline' | 'attachment') => {
    const headers = headersOf(row, disposition)
    return sendFile(request, (range) => ctx.blobs.body(row.blobKey, range), {
      size: row.size,
      etag: etagOf(row.sha256),
      disposition: headers['content-disposition']!,
      headers: { ...takeSetHeaders(set), ...headers },
    })
  }
  const notFound = (set: ResponseSet) => html(set, 404, messagePage(page, 'Not found', 'This link does not lead to a document. It may have been deleted, or the address is mistyped.'), robots(false))

  return new Elysia()
    .onStop(() => previews.close())
    .onBeforeHandle(({ request, server, path, set }) => {
      if (path.startsWith('/s/')) applyRateLimit(limiter, clientGroupOf(request, server, config.trustProxyHops), ctx.now(), set.headers)
    })
    .get('/s/:slug', async ({ request, params, server, set }) => {
      const row = await findSharedFile(params.slug)
      if (!row) return notFound(set)
      const cookiePath = `${page.basePath}/s/${row.slug}`
      const counted = await countView({
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
      return html(set, 200, viewerPage(row, page), { ...robots(row.searchEngineVisible), ...cookie })
    })
    .get('/s/:slug/file', async ({ request, params, set }) => {
      const row = await findSharedFile(params.slug)
      return row ? sendSharedPdf(request, set, row, 'inline') : notFound(set)
    })
    .get('/s/:slug/download', async ({ request, params, set }) => {
      const row = await findSharedFile(params.slug)
      if (!row) return notFound(set)
      if (!row.allowDownload) {
        return html(set, 403, messagePage(page, 'Download turned off', 'The owner of this document does not offer it for download.'), robots(row.searchEngineVisible))
      }
      return sendSharedPdf(request, set, row, 'attachment')
    })
    .get('/s/:slug/preview.png', async ({ request, params, set }) => {
      const row = await findSharedFile(params.slug)
      if (!row) return notFound(set)
      const preview = await previews.previewOf(row)
      const etag = `"p-${row.sha256.slice(0, 24)}${preview.kind === 'placeholder' ? '-0' : ''}"`
      // Revalidated on every use: a shared cache must not show page 1 after the file is deleted or replaced.
      const headers = { 'content-type': 'image/png', 'cache-control': 'public, no-cache', etag, 'x-content-type-options': 'nosniff', ...robots(row.searchEngineVisible) }
      if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
      return new Response(Bun.file(preview.path), { headers })
    })
    .get('/s/*', ({ set }) => notFound(set))
    .get('/assets/*', ({ request, params }) => assets.serve(request, params['*']) ?? new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } }))
}
