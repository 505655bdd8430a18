import { Elysia } from 'elysia'
import type { ViewerManifest } from '../../assets/viewer-assets'
import type { AppContext } from '../../core/context'
import type { SharedLink } from '../../core/links/find-shared-link'
import type { LinkState } from '../../core/links/link-state'
import { createPreviewService, PLACEHOLDER_PREVIEW, previewWaitOf } from '../../core/previews/preview-service'
import { DomainError } from '../../errors'
import { clientGroupOf, clientIpOf } from '../../http/client-ip'
import { applyRateLimit, loggedRateLimiter } from '../../http/rate-limit'
import { etagOf, sendFile, takeSetHeaders } from '../../http/send-file'
import { readBeaconBody } from './beacon-body'
import { type LinkCookie, linkCookieHeader, linkCookieValue } from './link-cookies'
import { goneWords, passwordPage } from './link-pages'
import { messagePage, viewerPage, type PageContext } from './pages'
import { readPasswordField } from './password-form'
import {
  LOCKED_PREVIEW_HEADERS,
  PAGE_HEADERS,
  PENDING_PREVIEW_HEADERS,
  PASSWORD_PAGE_HEADERS,
  previewHeaders,
  robotsHeaders,
  sharedPdfHeaders,
  STAND_IN_HEADERS,
  type Disposition,
} from './response-headers'
import { visitCookieHeader, visitCookieOf } from './reading-token'
import { linkAccessReader } from './service/link-access'
import { pageOpener } from './service/open-page'
import { downloadRecorder } from './service/record-download'
import { READING_LIMITS, readingRecorder } from './service/record-reading'
import { linkUnlocker } from './service/unlock-link'
import { visitFactsOf, visitOf } from './visitor'

type ResponseSet = { status?: number | string; headers: Record<string, string | number> }

/**
 * The public share routes: /s/:slug (the viewer, or the link's password page), its bytes, download and
 * preview. Each asks first what the link lets this reader have (service/link-access.ts): a link that is off,
 * expired or used up is a 410 on every route; a password link opens with its unlock cookie; a link with a
 * view limit serves its bytes to readers holding its grant. The page links to the built viewer by the names
 * in `manifest`; the assets themselves are served by src/assets.
 */
export function shareRoutes(ctx: AppContext, manifest: ViewerManifest) {
  const { config } = ctx
  const page: PageContext = { publicUrl: config.publicUrl, basePath: new URL(config.publicUrl).pathname.replace(/\/$/, ''), manifest }
  const previews = createPreviewService(ctx)
  const openPage = pageOpener(ctx)
  const accessOf = linkAccessReader(ctx)
  const unlock = linkUnlocker(ctx)
  const recordReading = readingRecorder(ctx, previews)
  const previewWaitMs = previewWaitOf(config)
  const recordDownload = downloadRecorder(ctx)
  const ownHost = new URL(config.publicUrl).host
  const limiter = loggedRateLimiter(ctx, 'per address on /s/*', config.rateLimitShare)
  const secure = config.publicUrl.startsWith('https:')
  const linkPath = (slug: string) => `${page.basePath}/s/${slug}`
  const linkCookie = (kind: LinkCookie, link: SharedLink['link']) =>
    linkCookieHeader(kind, linkCookieValue(ctx.signingKey, kind, link, ctx.now()), linkPath(link.slug), { secure })
  // Pages are returned as strings with their headers on `set`: a Response built here would be copied again
  // by Elysia to merge the common headers in, a large share of a page's CPU (BENCHMARKS.md, Design measurements).
  const html = (set: ResponseSet, status: number, body: string, headers: Record<string, string | string[]> = {}) => {
    set.status = status
    // Several Set-Cookie headers go as an array, which Elysia writes as one header each.
    Object.assign(set.headers, PAGE_HEADERS, headers)
    return body
  }
  const visitCookie = (link: SharedLink['link'], token: string) => visitCookieHeader(token, linkPath(link.slug), { secure })
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
  const gone = (set: ResponseSet, state: Exclude<LinkState, 'active'>) => {
    const words = goneWords(state)
    return html(set, 410, messagePage(page, words.title, words.message), STAND_IN_HEADERS)
  }
  const showPasswordPage = (set: ResponseSet, slug: string, wrong: boolean) =>
    html(set, wrong ? 401 : 200, passwordPage(page, slug, { wrong }), PASSWORD_PAGE_HEADERS)
  const refused = (set: ResponseSet, status: number, title: string, message: string, headers: Record<string, string> = {}) =>
    html(set, status, messagePage(page, title, message), { ...STAND_IN_HEADERS, ...headers })
  /**
   * The bytes of an open link (/file, /download): the password's unlock and a limited link's grant first. A
   * download that starts is recorded for the reading analytics before its bytes go (service/record-download.ts).
   */
  const sendBytes = async (request: Request, set: ResponseSet, slug: string, disposition: Disposition, clientIp = '') => {
    const access = await accessOf({ slug, cookies: request.headers.get('cookie') })
    if (access.kind === 'missing') return notFound(set)
    if (access.kind === 'gone') return gone(set, access.state)
    if (!access.unlocked) return refused(set, 401, 'Password required', 'Open the link and enter its password to read this document.')
    if (access.limited && !access.granted) return refused(set, 403, 'Open the link first', 'Open the link to read this document.')
    const { link } = access.shared
    if (disposition === 'attachment' && !link.allowDownload) {
      return html(
        set,
        403,
        messagePage(page, 'Download turned off', 'The owner of this document does not offer it for download.'),
        robotsHeaders(link.searchEngineVisible),
      )
    }
    if (disposition === 'attachment') {
      try {
        const { newToken } = await recordDownload({
          shared: access.shared,
          visit: visitOf(request, clientIp),
          facts: visitFactsOf(request, ownHost),
          visitToken: visitCookieOf(request.headers.get('cookie')),
          range: request.headers.get('range'),
        })
        if (newToken) set.headers['set-cookie'] = visitCookie(link, newToken)
      } catch (error) {
        // The reader still gets the document: analytics never stand between a reader and a download.
        ctx.log.error(`could not record a download of link ${link.id}`, error)
      }
    }
    return sendSharedPdf(request, set, access.shared, disposition)
  }

  return new Elysia()
    .onStop(() => previews.close())
    .onBeforeHandle(({ request, server, path, set }) => {
      if (path.startsWith('/s/'))
        return applyRateLimit(limiter, clientGroupOf(request, server, config.trustProxyHops), ctx.now(), set.headers)
    })
    .get('/s/:slug', async ({ request, params, server, set }) => {
      const decision = await openPage({
        slug: params.slug,
        cookies: request.headers.get('cookie'),
        visit: visitOf(request, clientIpOf(request, server, config.trustProxyHops)),
        facts: visitFactsOf(request, ownHost),
      })
      if (decision.kind === 'missing') return notFound(set)
      if (decision.kind === 'gone') return gone(set, decision.state)
      const { link } = decision.shared
      if (decision.kind === 'password') return showPasswordPage(set, link.slug, false)
      const cookies = [
        ...(decision.set.seen ? [linkCookie('seen', link)] : []),
        ...(decision.set.visitToken ? [visitCookie(link, decision.set.visitToken)] : []),
        ...(decision.set.grant ? [linkCookie('grant', link)] : []),
      ]
      const headers = { ...robotsHeaders(link.searchEngineVisible), ...(cookies.length > 0 && { 'set-cookie': cookies }) }
      if (decision.private) Object.assign(headers, { 'cache-control': 'no-store' })
      return html(set, 200, viewerPage(decision.shared, page, { reading: decision.reading, ungranted: decision.ungranted }), headers)
    })
    .post(
      '/s/:slug',
      async ({ request, params, server, set }) => {
        const access = await accessOf({ slug: params.slug, cookies: null })
        if (access.kind === 'missing') return notFound(set)
        if (access.kind === 'gone') return gone(set, access.state)
        const { link } = access.shared
        // Only a password page has a form: a link without a password takes no POST, like any other path.
        if (link.passwordHash === null) return notFound(set)
        const password = await readPasswordField(request)
        const address = clientGroupOf(request, server, config.trustProxyHops)
        try {
          const result = await unlock({ link, address, password })
          if (result.kind === 'rate_limited') {
            const retry = String(result.retryAfterSeconds)
            return refused(set, 429, 'Too many attempts', 'Too many wrong passwords for this link. Try again later.', {
              'retry-after': retry,
            })
          }
          if (result.kind === 'wrong') return showPasswordPage(set, link.slug, true)
        } catch (error) {
          if (!(error instanceof DomainError) || error.code !== 'server_busy') throw error
          return refused(set, 503, 'Busy', 'Too many passwords are being checked right now. Try again in a moment.', { 'retry-after': '1' })
        }
        set.status = 303
        Object.assign(set.headers, STAND_IN_HEADERS, {
          location: linkPath(link.slug),
          'set-cookie': linkCookie('unlock', link),
        })
        return ''
      },
      { parse: 'none' },
    )
    .get('/s/:slug/file', ({ request, params, set }) => sendBytes(request, set, params.slug, 'inline'))
    .get('/s/:slug/download', ({ request, params, server, set }) =>
      sendBytes(request, set, params.slug, 'attachment', clientIpOf(request, server, config.trustProxyHops)),
    )
    .post(
      '/s/:slug/reading',
      async ({ request, params, set }) => {
        const answer = (status: number, reason = '') => {
          set.status = status
          Object.assign(set.headers, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
          return reason
        }
        // With the reader's cookies: the reader who used a limited link's last view holds its grant and is still
        // reading, like their /file requests.
        const access = await accessOf({ slug: params.slug, cookies: request.headers.get('cookie') })
        if (access.kind === 'missing') return answer(404, 'no such link')
        const body = await readBeaconBody(request, READING_LIMITS.bodyBytes)
        if (typeof body !== 'string') return answer(body.status, body.reason)
        // A link turned off or expired since takes no more reading, nor a used-up one from a reader without its
        // grant (its password, though, is no bar: the token shows the page was served).
        const shared = access.kind === 'open' ? access.shared : undefined
        if (!shared) return answer(410, 'the link is no longer active')
        const result = await recordReading({ shared, body })
        return result.ok ? answer(204) : answer(result.status, result.reason)
      },
      { parse: 'none' },
    )
    .get('/s/:slug/preview.png', async ({ request, params, set }) => {
      const access = await accessOf({ slug: params.slug, cookies: null })
      if (access.kind === 'missing') return notFound(set)
      if (access.kind === 'gone') return gone(set, access.state)
      // A password link's preview never shows the document, whoever asks: the neutral card, the same for every link.
      if (access.shared.link.passwordHash !== null)
        return new Response(Bun.file(PLACEHOLDER_PREVIEW.path), { headers: LOCKED_PREVIEW_HEADERS })
      // Answered before the connection could be dropped for silence: a render still waiting or running
      // goes on and is there for the next request; this one gets the placeholder, marked pending.
      const preview = await previews.previewOf(access.shared.file, { waitMs: previewWaitMs })
      if (preview.pending) return new Response(Bun.file(preview.path), { headers: PENDING_PREVIEW_HEADERS })
      const headers = previewHeaders(access.shared, { placeholder: preview.kind === 'placeholder' })
      if (request.headers.get('if-none-match') === headers.etag) return new Response(null, { status: 304, headers })
      return new Response(Bun.file(preview.path), { headers })
    })
    .get('/s/*', ({ set }) => notFound(set))
}
