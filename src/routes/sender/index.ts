import { Elysia, t } from 'elysia'
import type { ViewerManifest } from '../../assets/viewer-assets'
import { pageBrands } from '../../core/branding/page-brand'
import { brandingSource } from '../../core/branding/read-branding'
import type { AppContext } from '../../core/context'
import { applyRateLimit, loggedRateLimiter } from '../../core/limits/logged-rate-limit'
import { requestOfSlug } from '../../core/requests/open-request'
import { type ReceivedFile, receiveRequestFile } from '../../core/requests/receive-file'
import { REQUEST_UPLOADS_PER_MINUTE } from '../../core/requests/rules'
import { requestState } from '../../core/requests/request-state'
import { senderCookieHeader } from '../../core/requests/sender-cookies'
import { senderGate } from '../../core/requests/sender-gate'
import { uploadReceiver } from '../../core/uploads/receive-upload'
import type { RequestRow } from '../../db/tables'
import { DomainError, requestClosed, requestNotFound, senderRefused } from '../../errors'
import { clientOf } from '../../http/client-ip'
import { isCrossSite } from '../../http/cross-site'
import { formDigest, idempotentWrites } from '../../http/idempotency'
import { httpFailure } from '../../http/failure'
import { readFormFields } from '../../http/form-fields'
import { requireMediaType } from '../../http/request-body'
import { FailureSchema, IdempotencyHeaders, openApiSchema } from '../../http/schemas'
import { codePage, addressPage, messagePage, passwordPage, receiptPage, requestPage, type SenderPageContext } from './answers/pages'
import { senderTexts, wantsPage } from './input'
import { ReceiptSchema, RequestSlugParams } from './model'
import { translators } from '../../core/i18n/translator'
import { chooseLanguage, LANGUAGE_COOKIE } from '../../core/i18n/negotiate'
import { cookieValues } from '../../lib/cookies'
import { pageAddressOf } from '../../core/i18n/reader-pages'

type ResponseSet = { status?: number | string; headers: Record<string, string | number | string[]> }

/** Scripts, styles, images and uploads of our origin only; forms post to the page's own addresses; never framed. */
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
}

const CLOSED = {
  disabled: ['sender.closed.disabled.title', 'sender.closed.disabled.message'],
  expired: ['sender.closed.expired.title', 'sender.closed.expired.message'],
  full: ['sender.closed.full.title', 'sender.closed.full.message'],
} as const

/** What the upload's form may hold besides the PDF, for the OpenAPI document. */
const SenderForm = t.Object({
  file: t.String({ format: 'binary', description: 'The PDF' }),
  name: t.Optional(t.String({ description: 'Your name' })),
  email: t.Optional(t.String({ description: 'Your address: required when the request asks for one' })),
  note: t.Optional(t.String({ description: 'A note to the person who asked' })),
})

/**
 * A file request's page for its senders, `/u/:slug` (docs/requests.md): the page with its form, its password
 * form, and `POST /u/:slug/files`, which takes one PDF a request. Thin handlers around core/requests. Every
 * request is limited per client address (PDFSHARE_RATE_LIMIT_SHARE, as on /s/*), uploads per request too; a form
 * another site made a browser send is refused before it is read.
 */
export function senderRoutes(ctx: AppContext, manifest: ViewerManifest) {
  const { config } = ctx
  const branding = brandingSource(ctx)
  const basePath = new URL(config.publicUrl).pathname.replace(/\/$/, '')
  const brandOf = pageBrands(basePath, `${basePath}/assets/${manifest.favicon}`)
  const translatorOf = translators()
  /**
   * A request's page context: the branding as read before it was answered, and its language (docs/languages.md:
   * the picker's cookie, else the browser's, else the instance's default), its picker leading back to the page.
   */
  const pageContextOf = (request: Request): SenderPageContext => {
    const language = chooseLanguage(
      { cookie: cookieValues(request.headers.get('cookie'), LANGUAGE_COOKIE)[0], acceptLanguage: request.headers.get('accept-language') },
      { fallback: config.defaultLanguage },
    )
    return {
      basePath,
      manifest,
      get brand() {
        return brandOf(branding.current())
      },
      t: translatorOf(language),
      back: pageAddressOf(basePath, request.url),
    }
  }
  const ownOrigin = new URL(config.publicUrl).origin
  const secure = config.publicUrl.startsWith('https:')
  const perAddress = loggedRateLimiter(ctx, 'per address on /u/*', config.rateLimitShare)
  const perRequest = loggedRateLimiter(ctx, 'uploads per file request', REQUEST_UPLOADS_PER_MINUTE)
  const gate = senderGate(ctx)
  const receiveUpload = uploadReceiver(ctx)
  const keyed = idempotentWrites(ctx)

  const page = (set: ResponseSet, status: number, body: string, headers: Record<string, string> = {}) => {
    set.status = status
    Object.assign(set.headers, { 'content-type': 'text/html; charset=utf-8' }, PAGE_HEADERS, headers)
    return body
  }
  /** A page as a Response of its own: the JSON receipt's route answers HTML to a browser's form, past its schema. */
  const pageResponse = (status: number, body: string, headers: ResponseSet['headers']) => {
    const set: ResponseSet = { headers: { ...headers } }
    page(set, status, body)
    return new Response(body, { status, headers: Object.entries(set.headers).map(([name, value]) => [name, String(value)]) })
  }
  const notFound = (set: ResponseSet, context: SenderPageContext) =>
    page(set, 404, messagePage(context, context.t('notFound.title'), context.t('sender.notFound.message')))
  /** The request of the path, open: or the page (404, 410) that says why not. */
  const openRequest = async (slug: string | null, set: ResponseSet, context: SenderPageContext): Promise<RequestRow | string> => {
    const request = slug === null ? undefined : await requestOfSlug(ctx, slug)
    if (!request) return notFound(set, context)
    const state = requestState(request, ctx.now())
    if (state !== 'active') return page(set, 410, messagePage(context, context.t(CLOSED[state][0]), context.t(CLOSED[state][1])))
    return request
  }
  /** The page past the password: a verified-email request's address form until a code proved one, else the form to send. */
  const pastPassword = (request: RequestRow, cookies: string | null, context: SenderPageContext) => {
    if (request.access !== 'verified-email') return requestPage(context, request)
    const proved = gate.provedAddress(request, cookies)
    return proved === undefined ? addressPage(context, request.slug) : requestPage(context, request, proved)
  }
  /** A verified-email request open to its code forms (its password given), or the page that says why not. */
  const openToCodes = async (
    slug: string | null,
    request: Request,
    set: ResponseSet,
    context: SenderPageContext,
  ): Promise<RequestRow | string> => {
    const open = await openRequest(slug, set, context)
    if (typeof open === 'string') return open
    if (open.access !== 'verified-email') return notFound(set, context) // only its address and code pages post here
    if (gate.isLocked(open, request.headers.get('cookie'))) return page(set, 403, passwordPage(context, open.slug, false))
    return open
  }
  const notAnAddress = (set: ResponseSet, slug: string, context: SenderPageContext) =>
    page(set, 400, addressPage(context, slug, { problem: context.t('address.invalid') }))
  const formFromElsewhere = ({ request, set }: { request: Request; set: ResponseSet }) => {
    if (!isCrossSite(request, ownOrigin)) return undefined
    const context = pageContextOf(request)
    return page(set, 403, messagePage(context, context.t('refused.crossSite.title'), context.t('sender.crossSite.message')))
  }

  return new Elysia({ name: 'sender' })
    .derive(({ request, server }) => ({ client: clientOf(request, server, config.trustProxyHops) }))
    .onBeforeHandle(async ({ client, set }) => {
      await applyRateLimit(perAddress, client.group, ctx.now(), set.headers)
      await branding.refresh()
    })
    .get(
      '/u/:slug',
      async ({ params, request, set }) => {
        const context = pageContextOf(request)
        const open = await openRequest(params.slug, set, context)
        if (typeof open === 'string') return open
        const cookies = request.headers.get('cookie')
        if (gate.isLocked(open, cookies)) return page(set, 200, passwordPage(context, open.slug, false))
        return page(set, 200, pastPassword(open, cookies, context))
      },
      { params: RequestSlugParams, detail: { hide: true } },
    )
    .post(
      '/u/:slug',
      async ({ params, request, set, client }) => {
        const context = pageContextOf(request)
        const open = await openRequest(params.slug, set, context)
        if (typeof open === 'string') return open
        if (open.passwordHash === null) return notFound(set, context) // only a password page has a form here
        const password = (await readFormFields(request)).get('password') ?? ''
        const decision = await gate.unlock(open, client.group, password)
        switch (decision.kind) {
          case 'rate_limited':
            return page(
              set,
              429,
              messagePage(context, context.t('refused.tooManyPasswords.title'), context.t('sender.tooManyPasswords.message')),
              {
                'retry-after': String(decision.retryAfterSeconds),
              },
            )
          case 'busy':
            return page(set, 503, messagePage(context, context.t('refused.busy.title'), context.t('sender.busy.message')), {
              'retry-after': '1',
            })
          case 'wrong':
            return page(set, 401, passwordPage(context, open.slug, true))
          case 'unlocked':
            set.headers['set-cookie'] = senderCookieHeader('unlock', decision.cookie, `${basePath}/u/${open.slug}`, secure)
            return page(set, 200, pastPassword(open, request.headers.get('cookie'), context))
        }
      },
      { params: RequestSlugParams, parse: 'none', beforeHandle: formFromElsewhere, detail: { hide: true } },
    )
    .post(
      '/u/:slug/sender',
      async ({ params, request, set, client }) => {
        const context = pageContextOf(request)
        const open = await openToCodes(params.slug, request, set, context)
        if (typeof open === 'string') return open
        const decision = await gate.enterAddress(open, (await readFormFields(request)).get('email') ?? '', client.group, context.t.language)
        switch (decision.kind) {
          case 'invalid':
            return notAnAddress(set, open.slug, context)
          case 'no_mail':
            return page(set, 503, messagePage(context, context.t('noMail.title'), context.t('sender.noMail.message')))
          case 'rate_limited':
            set.headers['retry-after'] = String(decision.retryAfterSeconds)
            return page(
              set,
              429,
              addressPage(context, open.slug, { problem: context.t('address.tooManyCodes'), address: decision.address }),
            )
          case 'code_sent':
            return page(set, 200, codePage(context, open.slug, { address: decision.address }))
        }
      },
      { params: RequestSlugParams, parse: 'none', beforeHandle: formFromElsewhere, detail: { hide: true } },
    )
    .post(
      '/u/:slug/code',
      async ({ params, request, set }) => {
        const context = pageContextOf(request)
        const open = await openToCodes(params.slug, request, set, context)
        if (typeof open === 'string') return open
        const form = await readFormFields(request)
        const decision = await gate.enterCode(open, form.get('email') ?? '', form.get('code') ?? '')
        if (decision.kind === 'invalid') return notAnAddress(set, open.slug, context)
        if (decision.kind === 'admitted') {
          // Back to the page, which now shows the form to send, with the proved address.
          set.status = 303
          Object.assign(set.headers, PAGE_HEADERS, {
            location: `${basePath}/u/${open.slug}`,
            'set-cookie': senderCookieHeader('sender', decision.cookie, `${basePath}/u/${open.slug}`, secure),
          })
          return ''
        }
        const problem = decision.kind === 'wrong' ? context.t('code.wrong', { tries: decision.triesLeft }) : context.t('code.expired')
        return page(set, 401, codePage(context, open.slug, { address: decision.address, problem }))
      },
      { params: RequestSlugParams, parse: 'none', beforeHandle: formFromElsewhere, detail: { hide: true } },
    )
    .post(
      '/u/:slug/files',
      async ({ params, request, set, client }) => {
        const context = pageContextOf(request)
        try {
          const receipt = await receive(params.slug, request, set, client.group)
          if (!wantsPage(request)) return receipt
          return pageResponse(201, receiptPage(context, params.slug!, receipt.files), set.headers)
        } catch (error) {
          if (!(error instanceof DomainError) || !wantsPage(request)) throw error
          // A form sent without scripts gets words, not JSON, with the same status.
          const failure = httpFailure(error)
          return pageResponse(failure.status, messagePage(context, context.t('sender.notSent.title'), error.message), {
            ...set.headers,
            ...failure.headers,
          })
        }
      },
      {
        params: RequestSlugParams,
        parse: 'none',
        headers: IdempotencyHeaders,
        response: {
          201: ReceiptSchema,
          400: FailureSchema,
          403: FailureSchema,
          404: FailureSchema,
          408: FailureSchema,
          409: FailureSchema,
          410: FailureSchema,
          413: FailureSchema,
          415: FailureSchema,
          422: FailureSchema,
          429: FailureSchema,
          503: FailureSchema,
          507: FailureSchema,
        },
        detail: {
          summary: "Send a PDF to a file request (the sender's side; no token)",
          description:
            'One PDF a request, as multipart/form-data. 410 request_closed when the request is turned off, expired or full; 403 sender_refused before its password or from an address it does not take; 422 infected; 503 scan_unavailable when the virus scanner cannot be reached; 507 when the owner has no room. Nothing is stored on any refusal. With an Idempotency-Key, a retry of a stored upload gets its receipt again (Idempotent-Replayed: true), also once the request is full.',
          tags: ['requests'],
          security: [],
          requestBody: { required: true, content: { 'multipart/form-data': { schema: openApiSchema(SenderForm) } } },
        },
      },
    )

  /**
   * Every check before a byte of the body is read, then the upload's own (core/uploads), then the commit. Under an
   * Idempotency-Key (kept with the request's owner, scoped to the request and to the address a code proved), a
   * retry of a stored upload gets its receipt again before the request's state is looked at: the upload that
   * filled it is answered again, not refused as full.
   */
  async function receive(slug: string | null, request: Request, set: ResponseSet, address: string) {
    if (isCrossSite(request, ownOrigin))
      throw senderRefused('This form was sent from another site; open the request’s link and send it from there')
    const open = slug === null ? undefined : await requestOfSlug(ctx, slug)
    if (!open) throw requestNotFound()
    const cookies = request.headers.get('cookie')
    const scope = `sender\n${open.id}\n${gate.provedAddress(open, cookies) ?? ''}`
    return keyed(
      request,
      set,
      { userId: open.ownerId },
      async (key) => {
        const state = requestState(open, ctx.now())
        if (state !== 'active' && !key.answered) throw requestClosed(state)
        gate.admit(open, cookies)
        await applyRateLimit(perRequest, open.id, ctx.now(), set.headers)
        requireMediaType(request, ['multipart/form-data'])
        const upload = await receiveUpload(request, {
          ownerId: open.ownerId,
          replay: key.answered,
          actor: { via: 'api', userId: null, name: `sender of file request ${open.id}`, address },
          request: { slotKey: `request ${open.id}`, maxFileBytes: open.maxFileSize, requestId: open.id },
        })
        try {
          const texts = senderTexts(upload.fields)
          const email = gate.address(open, texts.email, cookies)
          const sender = { name: texts.name, email, note: texts.note }
          return await key.once(
            formDigest(upload),
            (held) => receiveRequestFile(ctx, { request: open, upload, sender, key: held }),
            (file: ReceivedFile) => ({ status: 201, body: { files: [{ filename: file.filename, size: file.size, sha256: file.sha256 }] } }),
          )
        } finally {
          await upload[Symbol.asyncDispose]()
        }
      },
      scope,
    )
  }
}
