import { Elysia } from 'elysia'
import type { ViewerManifest } from '../../assets/viewer-assets'
import type { AppContext } from '../../core/context'
import { PLACEHOLDER_PREVIEW, type PreviewService, previewWaitOf } from '../../core/previews/preview-service'
import { clientGroupOf, clientIpOf } from '../../http/client-ip'
import { isCrossSite } from '../../http/cross-site'
import { applyRateLimit, loggedRateLimiter } from '../../core/limits/logged-rate-limit'
import { pageBrands } from '../../core/branding/page-brand'
import { brandingSource } from '../../core/branding/read-branding'
import { shareAnswers } from './answers'
import { readBeaconBody, readFormFields, readPasswordField, visitFactsOf, visitOf } from './input'
import { LOCKED_PREVIEW_HEADERS, PENDING_PREVIEW_HEADERS, previewHeaders, type Disposition } from './answers/headers'
import { linkAccessReader } from '../../core/share/link-access'
import { bytesOpener } from '../../core/share/open-bytes'
import { pageOpener } from '../../core/share/open-page'
import { pageImageOpener } from '../../core/share/open-page-image'
import { previewOpener } from '../../core/share/open-preview'
import { pageImageAnswer } from './answers/page-answers'
import { READING_LIMITS, readingRecorder } from '../../core/share/record-reading'
import { agreementAcceptor } from '../../core/share/accept-agreement'
import { readerGate } from '../../core/share/reader-gate'
import { linkUnlocker } from '../../core/share/unlock-link'
import { visitorKeys } from '../../core/share/visitor-salt'

/**
 * The public share routes: /s/:slug (the viewer, or the page of the link's next gate: its password, the reader's
 * address and mailed code, its agreement), the gates' forms, its bytes, download, its pages drawn as images,
 * its preview and reading batches. Each reads what it needs of the request (input.ts), asks its service what
 * should happen (service/open-*.ts, unlock-link.ts, record-reading.ts: a link that is off, expired or used
 * up is a 410 on every route; a password link opens with its unlock cookie; a link with a view limit serves
 * its bytes to readers holding its grant), and answers that decision (answers/). The page links to the
 * built viewer by the names in `manifest`; the assets themselves are served by src/assets.
 */
export function shareRoutes(ctx: AppContext, manifest: ViewerManifest, previews: PreviewService) {
  const { config } = ctx
  // The branding is read again before each request is answered (exactly on the embedded database, at most once a
  // second on a shared one: core/branding/read-branding.ts); pages draw it as it was read.
  const branding = brandingSource(ctx)
  const basePath = new URL(config.publicUrl).pathname.replace(/\/$/, '')
  const brandOf = pageBrands(basePath, `${basePath}/assets/${manifest.favicon}`)
  const answers = shareAnswers(ctx, manifest, () => brandOf(branding.current()))
  // Built once, shared by every route: the link lookups' cache, the day's visitor salt, page 1's size.
  const built = {
    accessOf: linkAccessReader(ctx),
    visitorKeyOf: visitorKeys(ctx),
    firstPageOf: previews.firstPageOf,
    sizesOf: previews.sizesOf,
    watermarks: previews.watermarks,
  }
  const openPage = pageOpener(ctx, built)
  const openBytes = bytesOpener(ctx, built)
  const openPreview = previewOpener(built.accessOf, previews, previewWaitOf(config))
  const openPageImage = pageImageOpener(ctx, built.accessOf, {
    imageOf: previews.pageImageOf,
    textOf: previews.pageTextOf,
    watermarks: built.watermarks,
  })
  const unlock = linkUnlocker(ctx, built.accessOf)
  const gate = readerGate(ctx, built.accessOf)
  const accept = agreementAcceptor(ctx, built.accessOf)
  const recordReading = readingRecorder(ctx, built.accessOf, previews)
  const ownHost = new URL(config.publicUrl).host
  const ownOrigin = new URL(config.publicUrl).origin
  /**
   * The gate forms' guard (password, address, code, agreement): a POST another site made the reader's browser send
   * is refused before it is read, so no page elsewhere can accept an agreement or give an address in a reader's name.
   */
  const sameSiteForm = {
    parse: 'none' as const,
    beforeHandle: ({ request, set }: { request: Request; set: Parameters<typeof answers.refused>[0] }) =>
      isCrossSite(request, ownOrigin)
        ? answers.refused(set, 403, 'Refused', 'This form was sent from another site. Open the link itself and try again.')
        : undefined,
  }
  const limiter = loggedRateLimiter(ctx, 'per address on /s/*', config.rateLimitShare)
  const bytes = async (
    request: Request,
    set: Parameters<typeof answers.bytes>[1],
    slug: string,
    clientIp: string,
    disposition: Disposition,
  ) =>
    answers.bytes(
      request,
      set,
      await openBytes({
        slug,
        cookies: request.headers.get('cookie'),
        disposition,
        visit: visitOf(request, clientIp),
        facts: visitFactsOf(request, ownHost),
        range: request.headers.get('range'),
      }),
      disposition,
    )

  /** A page drawn on the server (`?w=` its width) or its text (`text`): one decision, one way to answer it. */
  const pageAnswer = async (
    request: Request,
    params: { slug: string; page: string },
    server: Parameters<typeof clientGroupOf>[1],
    set: Parameters<typeof answers.bytes>[1],
    width: string | null | 'text',
  ) =>
    pageImageAnswer(
      request,
      set,
      await openPageImage({
        slug: params.slug,
        cookies: request.headers.get('cookie'),
        page: params.page,
        width,
        client: clientGroupOf(request, server, config.trustProxyHops),
      }),
      answers,
    )

  return new Elysia({ name: 'share' })
    .onBeforeHandle(async ({ request, server, path, set }) => {
      if (!path.startsWith('/s/')) return
      await applyRateLimit(limiter, clientGroupOf(request, server, config.trustProxyHops), ctx.now(), set.headers)
      await branding.refresh()
    })
    .get('/s/:slug', async ({ request, params, server, set }) =>
      answers.page(
        set,
        await openPage({
          slug: params.slug,
          cookies: request.headers.get('cookie'),
          visit: visitOf(request, clientIpOf(request, server, config.trustProxyHops)),
          facts: visitFactsOf(request, ownHost),
        }),
      ),
    )
    .post(
      '/s/:slug',
      async ({ request, params, server, set }) => {
        const decision = await unlock({
          slug: params.slug,
          address: clientGroupOf(request, server, config.trustProxyHops),
          password: () => readPasswordField(request),
        })
        switch (decision.kind) {
          case 'missing':
          case 'no_form': // only a password page has a form: a link without a password takes no POST, like any other path
            return answers.notFound(set)
          case 'gone':
            return answers.gone(set, decision.state)
          case 'rate_limited':
            return answers.refused(set, 429, 'Too many attempts', 'Too many wrong passwords for this link. Try again later.', {
              'retry-after': String(decision.retryAfterSeconds),
            })
          case 'busy':
            return answers.refused(set, 503, 'Busy', 'Too many passwords are being checked right now. Try again in a moment.', {
              'retry-after': '1',
            })
          case 'wrong':
            return answers.passwordForm(set, decision.link, true)
          case 'unlocked':
            return answers.unlocked(set, decision.link)
        }
      },
      sameSiteForm,
    )
    .post(
      '/s/:slug/reader',
      async ({ request, params, server, set }) => {
        const form = await readFormFields(request)
        return answers.address(
          set,
          await gate.enterAddress({
            slug: params.slug,
            cookies: request.headers.get('cookie'),
            client: clientGroupOf(request, server, config.trustProxyHops),
            email: form.get('email') ?? '',
          }),
        )
      },
      sameSiteForm,
    )
    .post(
      '/s/:slug/code',
      async ({ request, params, server, set }) => {
        const form = await readFormFields(request)
        return answers.code(
          set,
          await gate.enterCode({
            slug: params.slug,
            cookies: request.headers.get('cookie'),
            client: clientGroupOf(request, server, config.trustProxyHops),
            email: form.get('email') ?? '',
            code: form.get('code') ?? '',
          }),
        )
      },
      sameSiteForm,
    )
    .post(
      '/s/:slug/agreement',
      async ({ request, params, server, set }) => {
        const form = await readFormFields(request)
        return answers.agreement(
          set,
          await accept({
            slug: params.slug,
            cookies: request.headers.get('cookie'),
            version: form.get('version') ?? '',
            accept: form.get('accept') === 'yes',
            client: clientGroupOf(request, server, config.trustProxyHops),
          }),
        )
      },
      sameSiteForm,
    )
    .get('/s/:slug/file', ({ request, params, server, set }) =>
      bytes(request, set, params.slug, clientIpOf(request, server, config.trustProxyHops), 'inline'),
    )
    .get('/s/:slug/download', ({ request, params, server, set }) =>
      bytes(request, set, params.slug, clientIpOf(request, server, config.trustProxyHops), 'attachment'),
    )
    .post(
      '/s/:slug/reading',
      async ({ request, params, set }) => {
        const result = await recordReading({
          slug: params.slug,
          cookies: request.headers.get('cookie'),
          body: () => readBeaconBody(request, READING_LIMITS.bodyBytes),
        })
        set.status = result.ok ? 204 : result.status
        Object.assign(set.headers, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
        return result.ok ? '' : result.reason
      },
      { parse: 'none' },
    )
    .get('/s/:slug/pages/:page', ({ request, params, server, set }) =>
      pageAnswer(request, params, server, set, new URL(request.url).searchParams.get('w')),
    )
    .get('/s/:slug/pages/:page/text', ({ request, params, server, set }) => pageAnswer(request, params, server, set, 'text'))
    .get('/s/:slug/preview.png', async ({ request, params, set }) => {
      const decision = await openPreview({ slug: params.slug })
      if (decision.kind === 'missing') return answers.notFound(set)
      if (decision.kind === 'gone') return answers.gone(set, decision.state)
      if (decision.kind === 'locked') return new Response(Bun.file(PLACEHOLDER_PREVIEW.path), { headers: LOCKED_PREVIEW_HEADERS })
      const { preview, shared } = decision
      if (preview.pending) return new Response(Bun.file(preview.path), { headers: PENDING_PREVIEW_HEADERS })
      const headers = previewHeaders(shared, { placeholder: preview.kind === 'placeholder' })
      if (request.headers.get('if-none-match') === headers.etag) return new Response(null, { status: 304, headers })
      return new Response(Bun.file(preview.path), { headers })
    })
    .get('/s/*', ({ set }) => answers.notFound(set))
}
