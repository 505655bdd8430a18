import { Elysia } from 'elysia'
import type { ViewerManifest } from '../../assets/viewer-assets'
import type { AppContext } from '../../core/context'
import { PLACEHOLDER_PREVIEW, type PreviewService, previewWaitOf } from '../../core/previews/preview-service'
import { type Client, clientOf } from '../../http/client-ip'
import { isCrossSite } from '../../http/cross-site'
import { applyRateLimit, loggedRateLimiter } from '../../core/limits/logged-rate-limit'
import { pageBrands } from '../../core/branding/page-brand'
import { brandingSource } from '../../core/branding/read-branding'
import { shareAnswers } from './answers'
import { readFormFields } from '../../http/form-fields'
import { readBeaconBody, readPasswordField, visitFactsOf, visitOf } from './input'
import { LOCKED_PREVIEW_HEADERS, PENDING_PREVIEW_HEADERS, previewHeaders, robotsHeaders, type Disposition } from './answers/headers'
import { accessJudge, type LinkAccess, linkAccessReader, type ReadLinkAccess } from '../../core/share/link-access'
import { roomDocumentFinder } from '../../core/rooms/find-room-document'
import { roomIndexOf, roomPlaceOf } from '../../core/rooms/room-index'
import type { RoomNav } from './answers/toolbar-markup'
import { roomZip } from '../../core/rooms/room-zip'
import { takeSetHeaders } from '../../http/send-file'
import { parseCookies, type RequestCookies } from '../../lib/cookies'
import { chooseLanguage, LANGUAGE_COOKIE, type LanguageAsk } from '../../core/i18n/negotiate'
import { linkLanguageOf, pageAddressOf } from '../../core/i18n/reader-pages'
import type { ResponseSet } from './answers/gate-answers'
import { LinkParams, PageParams, RoomDocumentPageParams, RoomDocumentParams } from './model'
import { bytesOpener } from '../../core/share/open-bytes'
import { pageOpener, viewAdmitter } from '../../core/share/open-page'
import { pageImageOpener } from '../../core/share/open-page-image'
import { previewOpener } from '../../core/share/open-preview'
import { pageImageAnswer } from './answers/page-answers'
import { READING_LIMITS, readingRecorder } from '../../core/share/record-reading'
import { agreementAcceptor } from '../../core/share/accept-agreement'
import { readerGate } from '../../core/share/reader-gate'
import { linkUnlocker } from '../../core/share/unlock-link'
import { visitorKeys } from '../../core/share/visitor-salt'

/** What a route of a link has of its request once the plugin's derive and the link's resolve ran. */
type LinkRequest = { access: LinkAccess; reader: Reader }
type Reader = { cookies: RequestCookies; client: Client; language: LanguageAsk }
/** The share routes' answers, in the language of one request. */
type Answers = ReturnType<ReturnType<typeof shareAnswers>>

/**
 * The public share routes: /s/:slug (the viewer, or the page of the link's next gate: its password, the reader's
 * address and mailed code, its agreement), the gates' forms, its bytes, download, its pages drawn as images,
 * its preview and reading batches. What every route needs of its request is read once, before the route runs:
 * the reader's cookies and address (the derive), the link of the path and what the reader may have of it (the
 * `link` resolve); each route reads the rest it needs (input.ts), asks its service what should happen (service/open-*.ts, unlock-link.ts, record-reading.ts: a link that is off, expired or used
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
  const answersIn = shareAnswers(ctx, manifest, () => brandOf(branding.current()))
  /**
   * The answers in the request's language (docs/languages.md): the link's own, else the picker's cookie's, else the
   * browser's, else the instance's default; their language picker leads back to the page the request is about.
   */
  const languageOf = (reader: Reader, access?: LinkAccess) =>
    chooseLanguage(reader.language, { link: linkLanguageOf(access), fallback: config.defaultLanguage })
  const answersFor = (request: Request, reader: Reader, access?: LinkAccess) =>
    answersIn(languageOf(reader, access), pageAddressOf(basePath, request.url))
  // Built once, shared by every route: the link lookups' cache, the day's visitor salt, page 1's size.
  const accessOf = linkAccessReader(ctx)
  // A room link (docs/rooms.md): its documents' routes, and its gates' forms, judged with the room link's row.
  const judge = accessJudge(ctx)
  const findDocument = roomDocumentFinder(ctx)
  const documentAccessOf = async (slug: string | null, fileId: string | null, cookies: RequestCookies) =>
    judge(slug === null || fileId === null ? undefined : await findDocument(slug, fileId), cookies)
  /** A gate's form: a file's link, or else a room's (its gates are passed once for the whole room). */
  const gateAccessOf: ReadLinkAccess = async ({ slug, cookies }) => {
    const access = await accessOf({ slug, cookies })
    return access.kind !== 'missing' || slug === null ? access : judge(await findDocument(slug, null), cookies)
  }
  const built = {
    visitorKeyOf: visitorKeys(ctx),
    firstPageOf: previews.firstPageOf,
    sizesOf: previews.sizesOf,
    watermarks: previews.watermarks,
  }
  const openPage = pageOpener(ctx, built)
  const admitView = viewAdmitter(ctx, built.visitorKeyOf)
  const openBytes = bytesOpener(ctx, built)
  const openPreview = previewOpener(previews, previewWaitOf(config))
  const openPageImage = pageImageOpener(ctx, {
    imageOf: previews.pageImageOf,
    textOf: previews.pageTextOf,
    outlineOf: previews.outlineOf,
    watermarks: built.watermarks,
  })
  const unlock = linkUnlocker(ctx)
  const gate = readerGate(ctx)
  const accept = agreementAcceptor(ctx)
  const recordReading = readingRecorder(ctx, previews)
  const ownHost = new URL(config.publicUrl).host
  const ownOrigin = new URL(config.publicUrl).origin
  /**
   * The gate forms' guard (password, address, code, agreement): a POST another site made the reader's browser send
   * is refused before it is read, so no page elsewhere can accept an agreement or give an address in a reader's name.
   */
  const sameSiteForm = {
    parse: 'none' as const,
    beforeHandle: ({ request, set, reader }: { request: Request; set: ResponseSet; reader: Reader }) =>
      isCrossSite(request, ownOrigin) ? answersFor(request, reader).refused(set, 403, 'refused.crossSite') : undefined,
  }
  const limiter = loggedRateLimiter(ctx, 'per address on /s/*', config.rateLimitShare)
  const bytes = async (request: Request, set: ResponseSet, on: LinkRequest & { answers: Answers }, disposition: Disposition) =>
    on.answers.bytes(
      request,
      set,
      await openBytes({
        access: on.access,
        cookies: on.reader.cookies,
        disposition,
        visit: visitOf(request, on.reader.client.ip),
        facts: visitFactsOf(request, ownHost),
        range: request.headers.get('range'),
      }),
      disposition,
    )

  /**
   * `GET /s/:slug` of a room link (docs/rooms.md): its gates' pages as a file link shows them (the room link's
   * row, with its first document), then the room's index, filtered by `?q=`. No view is counted yet.
   */
  const roomPage = async (request: Request, set: ResponseSet, slug: string, reader: Reader) => {
    const access = await judge(await findDocument(slug, null), reader.cookies)
    const answers = answersFor(request, reader, access)
    if (access.kind === 'missing') return answers.notFound(set)
    if (access.kind === 'gone') return answers.gone(set, access)
    const { shared } = access
    if (access.gate) return answers.page(set, { kind: 'gate', gate: access.gate, shared })
    const filter = (new URL(request.url).searchParams.get('q') ?? '').slice(0, 200)
    const index = await roomIndexOf(ctx, { roomId: shared.link.roomId ?? '', ownerId: shared.file.ownerId, filter })
    if (!index) return answers.notFound(set)
    // The room link's view (its view limit applies here, and only here: core/share/open-page.ts).
    const admission = await admitView({
      access,
      scope: 'room',
      cookies: reader.cookies,
      visit: visitOf(request, reader.client.ip),
      facts: visitFactsOf(request, ownHost),
    })
    if (admission.kind === 'gone') return answers.gone(set, admission)
    return answers.room(set, shared.link, index, filter, admission.set)
  }

  /** A ZIP's Content-Disposition: an ASCII stand-in name, and the room's own name in RFC 5987's form. */
  const zipDisposition = (name: string) =>
    `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`

  /**
   * `GET /s/:slug/download` of a room link: the ZIP of its documents (core/rooms/room-zip.ts), when the room link
   * itself would give a download; else that refusal (401, 403, 410; 404 for a room with no document).
   */
  const roomDownload = async (request: Request, set: ResponseSet, slug: string, reader: Reader) => {
    const access = await judge(await findDocument(slug, null), reader.cookies)
    const answers = answersFor(request, reader, access)
    const open = (on: LinkAccess) =>
      openBytes({
        access: on,
        cookies: reader.cookies,
        disposition: 'attachment',
        visit: visitOf(request, reader.client.ip),
        facts: visitFactsOf(request, ownHost),
        range: null,
      })
    // The room's own answer first (no document is opened, nothing recorded, when the link would refuse one).
    const refusal = access.kind !== 'open' || access.gate || (access.limited && !access.granted) || !access.shared.link.allowDownload
    if (refusal) return answers.bytes(request, set, await open(access), 'attachment')
    const { shared } = access
    const index = await roomIndexOf(ctx, { roomId: shared.link.roomId ?? '', ownerId: shared.file.ownerId, filter: '' })
    if (!index) return answers.notFound(set)
    const zip = roomZip(ctx, index.documents, async (fileId) => open(await documentAccessOf(slug, fileId, reader.cookies)))
    return new Response(zip, {
      headers: {
        ...takeSetHeaders(set),
        'content-type': 'application/zip',
        'content-disposition': zipDisposition(`${index.name}.zip`),
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
        ...robotsHeaders(shared.link.searchEngineVisible),
      },
    })
  }

  /** A batch of reading time of a link's page, or a room document's (a visit of the room link and that file). */
  const readingAnswer = async (request: Request, set: ResponseSet, access: LinkAccess) => {
    const result = await recordReading({ access, body: () => readBeaconBody(request, READING_LIMITS.bodyBytes) })
    set.status = result.ok ? 204 : result.status
    Object.assign(set.headers, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
    return result.ok ? '' : result.reason
  }

  /** A link's card image, or a room document's (`access` judged without cookies: the same for everyone). */
  const previewAnswer = async (request: Request, set: ResponseSet, access: LinkAccess, answers: Answers) => {
    const decision = await openPreview({ access })
    if (decision.kind === 'missing') return answers.notFound(set)
    if (decision.kind === 'gone') return answers.gone(set, decision)
    if (decision.kind === 'locked') return new Response(Bun.file(PLACEHOLDER_PREVIEW.path), { headers: LOCKED_PREVIEW_HEADERS })
    const { preview, shared } = decision
    if (preview.pending) return new Response(Bun.file(preview.path), { headers: PENDING_PREVIEW_HEADERS })
    const headers = previewHeaders(shared, { placeholder: preview.kind === 'placeholder' })
    if (request.headers.get('if-none-match') === headers.etag) return new Response(null, { status: 304, headers })
    return new Response(Bun.file(preview.path), { headers })
  }

  /**
   * `GET /s/:slug/docs/:fileId`: a room link's document in the viewer a file link gets (the same decision and
   * answer: pages drawn on the server when the link is view-only or watermarked, pdf.js otherwise), leading back
   * to the room's index and to the previous and next documents in the room's order, as the room is now.
   */
  const documentPage = async (request: Request, set: ResponseSet, on: LinkRequest & { answers: Answers }) => {
    const { answers } = on
    const decision = await openPage({
      access: on.access,
      cookies: on.reader.cookies,
      visit: visitOf(request, on.reader.client.ip),
      facts: visitFactsOf(request, ownHost),
    })
    if (decision.kind !== 'page') return answers.page(set, decision)
    const { link, file } = decision.shared
    const place = await roomPlaceOf(ctx, { roomId: link.roomId ?? '', ownerId: file.ownerId, fileId: file.id })
    if (!place) return answers.notFound(set) // taken out while the page was being made
    const at = (fileId: string) => `/s/${link.slug}/docs/${fileId}`
    const nav: RoomNav = {
      path: at(file.id),
      index: { path: `/s/${link.slug}`, name: place.name },
      previous: place.previous && { path: at(place.previous.fileId), title: place.previous.title || place.previous.filename },
      next: place.next && { path: at(place.next.fileId), title: place.next.title || place.next.filename },
    }
    return answers.page(set, decision, nav)
  }

  /** A page drawn on the server (`?w=` its width), its text (`text`), or the outline: one decision, one way to answer it. */
  const pageAnswer = async (
    request: Request,
    set: ResponseSet,
    on: LinkRequest & { page: number | null; answers: Answers },
    width: string | null | 'text' | 'outline',
  ) =>
    pageImageAnswer(
      request,
      set,
      await openPageImage({ access: on.access, cookies: on.reader.cookies, page: on.page, width, client: on.reader.client.group }),
      on.answers,
    )

  return (
    new Elysia({ name: 'share' })
      // Read once a request, before anything else of it: the reader's cookies and where the request comes from.
      .derive(({ request, server }) => {
        const cookies = parseCookies(request.headers.get('cookie'))
        const reader: Reader = {
          cookies,
          client: clientOf(request, server, config.trustProxyHops),
          language: { cookie: cookies.get(LANGUAGE_COOKIE)?.[0], acceptLanguage: request.headers.get('accept-language') },
        }
        return { reader }
      })
      .onBeforeHandle(async ({ reader, set }) => {
        await applyRateLimit(limiter, reader.client.group, ctx.now(), set.headers)
        await branding.refresh()
      })
      /**
       * The link of the path and what the reader may have of it (core/share/link-access.ts), looked up once a
       * request, after the per-address limit, and handed to the route as `access`: `link` judges it with the
       * reader's cookies, `linkForAnyone` without them, for the answers that are the same for everyone (the link's
       * card, its password form). Each names the schema of the params it reads; a route that reads more declares
       * its own, which Elysia takes instead (a page's number).
       */
      .macro('link', {
        params: LinkParams,
        resolve: async ({ params, reader, request }) => {
          // The derive above ran for every route of this plugin; the macro's types cannot know it.
          const access = await accessOf({ slug: params.slug, cookies: reader!.cookies })
          return { access, answers: answersFor(request, reader!, access) }
        },
      })
      .macro('linkForAnyone', {
        params: LinkParams,
        resolve: async ({ params, reader, request }) => {
          const access = await accessOf({ slug: params.slug, cookies: new Map() })
          return { access, answers: answersFor(request, reader!, access) }
        },
      })
      // The gates' forms take a room's link too: `gate` with the reader's cookies, `gateForAnyone` without.
      .macro('gate', {
        params: LinkParams,
        resolve: async ({ params, reader, request }) => {
          const access = await gateAccessOf({ slug: params.slug, cookies: reader!.cookies })
          return { access, answers: answersFor(request, reader!, access) }
        },
      })
      .macro('gateForAnyone', {
        params: LinkParams,
        resolve: async ({ params, reader, request }) => {
          const access = await gateAccessOf({ slug: params.slug, cookies: new Map() })
          return { access, answers: answersFor(request, reader!, access) }
        },
      })
      /**
       * A document of a room link: open exactly when the room link would open with the reader's cookies AND the file
       * is in the room now (read per request: core/rooms/find-room-document.ts); else what a missing link gets.
       */
      .macro('roomDocument', {
        params: RoomDocumentParams,
        resolve: async ({ params, reader, request }) => {
          const access = await documentAccessOf(params.slug, params.fileId, reader!.cookies)
          return { access, answers: answersFor(request, reader!, access) }
        },
      })
      .macro('roomDocumentForAnyone', {
        params: RoomDocumentParams,
        resolve: async ({ params, reader, request }) => {
          const access = await documentAccessOf(params.slug, params.fileId, new Map())
          return { access, answers: answersFor(request, reader!, access) }
        },
      })
      .get(
        '/s/:slug',
        async ({ request, access, answers, reader, set, params }) =>
          access.kind === 'missing' && params.slug !== null
            ? roomPage(request, set, params.slug, reader)
            : answers.page(
                set,
                await openPage({
                  access,
                  cookies: reader.cookies,
                  visit: visitOf(request, reader.client.ip),
                  facts: visitFactsOf(request, ownHost),
                }),
              ),
        { params: LinkParams, link: true },
      )
      .post(
        '/s/:slug',
        async ({ request, access, answers, reader, set }) => {
          const decision = await unlock({ access, address: reader.client.group, password: () => readPasswordField(request) })
          switch (decision.kind) {
            case 'missing':
            case 'no_form': // only a password page has a form: a link without a password takes no POST, like any other path
              return answers.notFound(set)
            case 'gone':
              return answers.gone(set, decision)
            case 'rate_limited':
              return answers.refused(set, 429, 'refused.tooManyPasswords', { 'retry-after': String(decision.retryAfterSeconds) })
            case 'busy':
              return answers.refused(set, 503, 'refused.busy', { 'retry-after': '1' })
            case 'wrong':
              return answers.passwordForm(set, decision.link, true)
            case 'unlocked':
              return answers.unlocked(set, decision.link)
          }
        },
        { ...sameSiteForm, params: LinkParams, gateForAnyone: true },
      )
      .post(
        '/s/:slug/reader',
        async ({ request, access, answers, reader, set }) => {
          const form = await readFormFields(request)
          return answers.address(
            set,
            await gate.enterAddress({
              access,
              client: reader.client.group,
              email: form.get('email') ?? '',
              // The code mail speaks the page's language.
              language: languageOf(reader, access),
            }),
          )
        },
        { ...sameSiteForm, params: LinkParams, gate: true },
      )
      .post(
        '/s/:slug/code',
        async ({ request, access, answers, reader, set }) => {
          const form = await readFormFields(request)
          return answers.code(
            set,
            await gate.enterCode({ access, client: reader.client.group, email: form.get('email') ?? '', code: form.get('code') ?? '' }),
          )
        },
        { ...sameSiteForm, params: LinkParams, gate: true },
      )
      .post(
        '/s/:slug/agreement',
        async ({ request, access, answers, reader, set }) => {
          const form = await readFormFields(request)
          return answers.agreement(
            set,
            await accept({
              access,
              version: form.get('version') ?? '',
              accept: form.get('accept') === 'yes',
              client: reader.client.group,
            }),
          )
        },
        { ...sameSiteForm, params: LinkParams, gate: true },
      )
      // Each handler names what it reads of the context: Elysia prepares only what is named (a rest parameter would
      // have it parse the query, the cookies and the headers of every request).
      .get('/s/:slug/file', ({ request, set, access, answers, reader }) => bytes(request, set, { access, reader, answers }, 'inline'), {
        params: LinkParams,
        link: true,
      })
      .get(
        '/s/:slug/download',
        ({ request, set, access, answers, reader, params }) =>
          access.kind === 'missing' && params.slug !== null
            ? roomDownload(request, set, params.slug, reader)
            : bytes(request, set, { access, reader, answers }, 'attachment'),
        { params: LinkParams, link: true },
      )
      .post('/s/:slug/reading', ({ request, access, set }) => readingAnswer(request, set, access), {
        parse: 'none',
        params: LinkParams,
        link: true,
      })
      .get(
        '/s/:slug/pages/:page',
        ({ request, set, access, answers, reader, params }) =>
          pageAnswer(request, set, { access, reader, answers, page: params.page }, new URL(request.url).searchParams.get('w')),
        {
          params: PageParams,
          link: true,
        },
      )
      .get(
        '/s/:slug/pages/:page/text',
        ({ request, set, access, answers, reader, params }) =>
          pageAnswer(request, set, { access, reader, answers, page: params.page }, 'text'),
        {
          params: PageParams,
          link: true,
        },
      )
      .get(
        '/s/:slug/outline',
        ({ request, set, access, answers, reader }) => pageAnswer(request, set, { access, reader, answers, page: null }, 'outline'),
        { params: LinkParams, link: true },
      )
      // A room link's card image is its first document's (docs/rooms.md, Link cards): `gateForAnyone` finds it.
      .get('/s/:slug/preview.png', ({ request, access, answers, set }) => previewAnswer(request, set, access, answers), {
        params: LinkParams,
        gateForAnyone: true,
      })
      // A room link's documents: a file link's routes under `/docs/:fileId` (docs/rooms.md).
      .get(
        '/s/:slug/docs/:fileId',
        ({ request, set, access, answers, reader }) => documentPage(request, set, { access, reader, answers }),
        {
          params: RoomDocumentParams,
          roomDocument: true,
        },
      )
      .post('/s/:slug/docs/:fileId/reading', ({ request, access, set }) => readingAnswer(request, set, access), {
        parse: 'none',
        params: RoomDocumentParams,
        roomDocument: true,
      })
      .get('/s/:slug/docs/:fileId/preview.png', ({ request, access, answers, set }) => previewAnswer(request, set, access, answers), {
        params: RoomDocumentParams,
        roomDocumentForAnyone: true,
      })
      .get(
        '/s/:slug/docs/:fileId/file',
        ({ request, set, access, answers, reader }) => bytes(request, set, { access, reader, answers }, 'inline'),
        {
          params: RoomDocumentParams,
          roomDocument: true,
        },
      )
      .get(
        '/s/:slug/docs/:fileId/download',
        ({ request, set, access, answers, reader }) => bytes(request, set, { access, reader, answers }, 'attachment'),
        {
          params: RoomDocumentParams,
          roomDocument: true,
        },
      )
      .get(
        '/s/:slug/docs/:fileId/pages/:page',
        ({ request, set, access, answers, reader, params }) =>
          pageAnswer(request, set, { access, reader, answers, page: params.page }, new URL(request.url).searchParams.get('w')),
        { params: RoomDocumentPageParams, roomDocument: true },
      )
      .get(
        '/s/:slug/docs/:fileId/pages/:page/text',
        ({ request, set, access, answers, reader, params }) =>
          pageAnswer(request, set, { access, reader, answers, page: params.page }, 'text'),
        { params: RoomDocumentPageParams, roomDocument: true },
      )
      .get(
        '/s/:slug/docs/:fileId/outline',
        ({ request, set, access, answers, reader }) => pageAnswer(request, set, { access, reader, answers, page: null }, 'outline'),
        { params: RoomDocumentParams, roomDocument: true },
      )
      .get('/s/*', ({ request, reader, set }) => answersFor(request, reader).notFound(set))
  )
}
