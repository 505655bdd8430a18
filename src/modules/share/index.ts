import { Elysia } from 'elysia'
import type { ViewerManifest } from '../../assets/viewer-assets'
import type { AppContext } from '../../core/context'
import { sharedLinkFinder, type SharedLink } from '../../core/links/find-shared-link'
import { createPreviewService } from '../../core/previews/preview-service'
import { clientGroupOf, clientIpOf } from '../../http/client-ip'
import { applyRateLimit, loggedRateLimiter } from '../../http/rate-limit'
import { etagOf, sendFile, takeSetHeaders } from '../../http/send-file'
import { messagePage, viewerPage, type PageContext } from './pages'
import { PAGE_HEADERS, previewHeaders, robotsHeaders, sharedPdfHeaders, type Disposition } from './response-headers'
import { createViewCounter } from './service/count-view'
import { seenCookie, visitOf } from './visitor'

type ResponseSet = { status?: number | string; headers: Record<string, string | number> }

/**
 * The public share routes: /s/:slug (the viewer), its bytes, download and preview. The page links to the
 * built viewer by the names in `manifest`; the assets themselves are served by src/assets.
 */
export function shareRoutes(ctx: AppContext, manifest: ViewerManifest) {
  const { config } = ctx
  const page: PageContext = { publicUrl: config.publicUrl, basePath: new URL(config.publicUrl).pathname.replace(/\/$/, ''), manifest }
  const previews = createPreviewService(ctx)
  const countView = createViewCounter(ctx)
  const findSharedLink = sharedLinkFinder(ctx)
  const limiter = loggedRateLimiter('per address on /s/*', config.rateLimitShare, ctx.log)
  const secureCookies = config.publicUrl.startsWith('https:')
  // Pages are returned as strings with their headers on `set`: a Response built here would be copied again
  // by Elysia to merge the common headers in, a large share of a page's CPU (BENCHMARKS.md, Design measurements).
  const html = (set: ResponseSet, status: number, body: string, headers: Record<string, string> = {}) => {
    set.status = status
    Object.assign(set.headers, PAGE_HEADERS, headers)
    return body
  }
  const headersOf = sharedPdfHeaders()
  const sendSharedPdf = (request: Request, set: ResponseSet, shared: SharedLink, disposition: Disposition) => {
    const headers = headersOf(shared, disposition)
    const { file } = shared
    return sendFile(request, (range) => ctx.blobs.body(file.blobKey, range), {
      size: file.size,
      etag: etagOf(file.sha256),
      disposition: headers['content-disposition']!,
      headers: { ...takeSetHeaders(set), ...headers },
    })
  }
  const notFound = (set: ResponseSet) =>
    html(
      set,
      404,
      messagePage(page, 'Not found', 'This link does not lead to a document. It may have been deleted, or the address is mistyped.'),
      robotsHeaders(false),
    )

  return new Elysia()
    .onStop(() => previews.close())
    .onBeforeHandle(({ request, server, path, set }) => {
      if (path.startsWith('/s/')) applyRateLimit(limiter, clientGroupOf(request, server, config.trustProxyHops), ctx.now(), set.headers)
    })
    .get('/s/:slug', async ({ request, params, server, set }) => {
      const row = await findSharedLink(params.slug)
      if (!row) return notFound(set)
      const counted = await countView({ link: row.link, visit: visitOf(request, clientIpOf(request, server, config.trustProxyHops)) })
      const cookie = counted ? { 'set-cookie': seenCookie(`${page.basePath}/s/${row.link.slug}`, { secure: secureCookies }) } : undefined
      return html(set, 200, viewerPage(row, page), { ...robotsHeaders(row.link.searchEngineVisible), ...cookie })
    })
    .get('/s/:slug/file', async ({ request, params, set }) => {
      const row = await findSharedLink(params.slug)
      return row ? sendSharedPdf(request, set, row, 'inline') : notFound(set)
    })
    .get('/s/:slug/download', async ({ request, params, set }) => {
      const row = await findSharedLink(params.slug)
      if (!row) return notFound(set)
      if (!row.link.allowDownload) {
        return html(
          set,
          403,
          messagePage(page, 'Download turned off', 'The owner of this document does not offer it for download.'),
          robotsHeaders(row.link.searchEngineVisible),
        )
      }
      return sendSharedPdf(request, set, row, 'attachment')
    })
    .get('/s/:slug/preview.png', async ({ request, params, set }) => {
      const row = await findSharedLink(params.slug)
      if (!row) return notFound(set)
      const preview = await previews.previewOf(row.file)
      const headers = previewHeaders(row, { placeholder: preview.kind === 'placeholder' })
      if (request.headers.get('if-none-match') === headers.etag) return new Response(null, { status: 304, headers })
      return new Response(Bun.file(preview.path), { headers })
    })
    .get('/s/*', ({ set }) => notFound(set))
}
