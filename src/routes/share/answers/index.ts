import type { ViewerManifest } from '../../../assets/viewer-assets'
import type { PageBrand } from '../../../core/branding/page-brand'
import type { AppContext } from '../../../core/context'
import type { SharedLink } from '../../../core/links/find-shared-link'
import type { GoneAccess } from '../../../core/share/link-access'
import { slice } from '../../../storage/local-blob-store'
import { etagOf, sendFile, takeSetHeaders } from '../../../http/send-file'
import { type AnswerKit, gateAnswers, type RefusalWords, refusalText, type ResponseSet } from './gate-answers'
import { translators } from '../../../core/i18n/translator'
import { scriptMessages } from '../../../core/i18n/page-markup'
import type { Language } from '../../../shared/languages'
import type { SafeHtml } from '../../../lib/html'
import { goneWords, passwordPage } from './link-pages'
import { messagePage, viewerPage, type PageContext } from './pages'
import { roomIndexPage } from './room-page'
import type { RoomNav } from './toolbar-markup'
import type { RoomIndex } from '../../../core/rooms/room-index'
import { type LinkCookie, linkCookieValue, readerCookieHeader } from '../../../core/share/reader-cookies'
import { crossSiteCookiesWork, isEmbeddable } from '../../../core/links/embed-origins'
import {
  framingHeaders,
  PAGE_HEADERS,
  PASSWORD_PAGE_HEADERS,
  robotsHeaders,
  sharedPdfHeaders,
  STAND_IN_HEADERS,
  type Disposition,
} from './headers'
import type { BytesDecision } from '../../../core/share/open-bytes'
import type { PageDecision } from '../../../core/share/open-page'

export type { ResponseSet } from './gate-answers'

/**
 * How the share routes answer what their services decided: each decision becomes its page, status, headers and
 * cookies here, and nowhere else. Pages are returned as strings with their headers on `set`: a Response built
 * here would be copied again by Elysia to merge the common headers in, a large share of a page's CPU
 * (BENCHMARKS.md, Design measurements). The answers speak the request's language (docs/languages.md): the
 * routes choose it and ask for the answers in it (`answersIn(language, back)`, `back`: the page's own address,
 * where the language picker leads back to).
 */
export function shareAnswers(ctx: AppContext, manifest: ViewerManifest, brand: () => PageBrand) {
  const { config } = ctx
  const basePath = new URL(config.publicUrl).pathname.replace(/\/$/, '')
  const translatorOf = translators()
  // The viewer script's words, one block a language, made when first asked for.
  const messagesOf = new Map<Language, SafeHtml>()
  const viewerWords = (language: Language) => {
    let block = messagesOf.get(language)
    if (!block) {
      block = scriptMessages(translatorOf(language), 'viewer.')
      messagesOf.set(language, block)
    }
    return block
  }
  const secure = config.publicUrl.startsWith('https:')
  const framedCookiesWork = crossSiteCookiesWork(config.publicUrl)
  const cookieOptions = (link: SharedLink['link']) => ({ secure, crossSite: framedCookiesWork && isEmbeddable(link) })
  const linkPath = (slug: string) => `${basePath}/s/${slug}`
  const linkCookie = (kind: LinkCookie, link: SharedLink['link']) =>
    readerCookieHeader(kind, linkCookieValue(ctx.signingKey, kind, link, ctx.now()), linkPath(link.slug), cookieOptions(link))
  /**
   * A visit's reading token, at the path of what was visited: a file's link, or a room link's document (a visit of
   * one document never ties a download of another to it).
   */
  const visitCookie = (link: SharedLink['link'], token: string) =>
    readerCookieHeader(
      'visit',
      token,
      link.roomId ? `${linkPath(link.slug)}/docs/${link.fileId}` : linkPath(link.slug),
      cookieOptions(link),
    )
  const html = (set: ResponseSet, status: number, body: string, headers: Record<string, string | string[]> = {}) => {
    set.status = status
    // Several Set-Cookie headers go as an array, which Elysia writes as one header each.
    Object.assign(set.headers, PAGE_HEADERS, headers)
    return body
  }
  const pdfHeaders = sharedPdfHeaders()

  return (language: Language, back: string) => {
    const t = translatorOf(language)
    const page: PageContext = {
      publicUrl: config.publicUrl,
      basePath,
      manifest,
      // The branding read for this request before it was answered (index.ts): the same for every request.
      get brand() {
        return brand()
      },
      t,
      back,
      scriptMessages: () => viewerWords(language),
    }
    const notFound = (set: ResponseSet) =>
      html(set, 404, messagePage(page, t('notFound.title'), t('notFound.message')), robotsHeaders(false))
    /**
     * The 410 page; inside the frames of the sites a link names (`embedOrigins`) as its other pages are; an expired
     * link's names the day it ended (`expiredAt`).
     */
    const gone = (set: ResponseSet, { state, embedOrigins = '', expiresAt }: GoneAccess) => {
      const words = goneWords(t, state, expiresAt)
      return html(set, 410, messagePage(page, words.title, words.message), {
        ...STAND_IN_HEADERS,
        ...framingHeaders({ embedOrigins }, 'viewer'),
      })
    }
    const refused = (set: ResponseSet, status: number, words: RefusalWords, headers: Record<string, string> = {}) => {
      const { title, message } = refusalText(t, words)
      return html(set, status, messagePage(page, title, message), { ...STAND_IN_HEADERS, ...headers })
    }
    const passwordForm = (set: ResponseSet, link: SharedLink['link'], wrong: boolean) =>
      html(set, wrong ? 401 : 200, passwordPage(page, link.slug, { wrong }), { ...PASSWORD_PAGE_HEADERS, ...framingHeaders(link, 'form') })
    const kit: AnswerKit = { ctx, page, html, notFound, gone, refused, linkPath, linkCookie, cookieOptions }
    const gates = gateAnswers(kit)

    return {
      notFound,
      gone,
      refused,
      passwordForm,
      ...gates,

      /**
       * `GET /s/:slug` of a room link past its gates: the room's index (docs/rooms.md), never kept by a cache, with
       * the cookies of its counted view (`seen`, and `grant` for a limited room link: its documents open with it).
       */
      room(set: ResponseSet, link: SharedLink['link'], index: RoomIndex, filter: string, counted: { seen: boolean; grant: boolean }) {
        const cookies = [...(counted.seen ? [linkCookie('seen', link)] : []), ...(counted.grant ? [linkCookie('grant', link)] : [])]
        return html(set, 200, roomIndexPage(page, linkPath(link.slug), index, filter), {
          ...robotsHeaders(link.searchEngineVisible),
          ...framingHeaders(link, 'viewer'),
          'cache-control': 'no-store',
          ...(cookies.length > 0 && { 'set-cookie': cookies }),
        })
      },

      /** `GET /s/:slug`, and a room link's document page `GET /s/:slug/docs/:fileId` (`room`: where it leads). */
      page(set: ResponseSet, decision: PageDecision, room?: RoomNav) {
        if (decision.kind === 'missing') return notFound(set)
        if (decision.kind === 'gone') return gone(set, decision)
        if (decision.kind === 'busy') return refused(set, 503, 'refused.preparing', { 'retry-after': '2' })
        const { link } = decision.shared
        if (decision.kind === 'room_first') {
          set.status = 303
          Object.assign(set.headers, STAND_IN_HEADERS, { location: linkPath(link.slug) })
          return ''
        }
        if (decision.kind === 'gate')
          return decision.gate === 'password' ? passwordForm(set, link, false) : gates.gatePage(set, decision.gate, decision.shared)
        const cookies = [
          ...(decision.set.seen ? [linkCookie('seen', link)] : []),
          ...(decision.set.visitToken ? [visitCookie(link, decision.set.visitToken)] : []),
          ...(decision.set.grant ? [linkCookie('grant', link)] : []),
        ]
        const headers = {
          ...robotsHeaders(link.searchEngineVisible),
          ...framingHeaders(link, 'viewer'),
          ...(cookies.length > 0 && { 'set-cookie': cookies }),
        }
        if (decision.private) Object.assign(headers, { 'cache-control': 'no-store' })
        return html(
          set,
          200,
          viewerPage(decision.shared, page, {
            reading: decision.reading,
            ungranted: decision.ungranted,
            firstPage: decision.firstPage,
            images: decision.images,
            room,
          }),
          headers,
        )
      },

      /** `POST /s/:slug` with the right password: back to the page, with the unlock cookie. */
      unlocked(set: ResponseSet, link: SharedLink['link']) {
        set.status = 303
        Object.assign(set.headers, STAND_IN_HEADERS, { location: linkPath(link.slug), 'set-cookie': linkCookie('unlock', link) })
        return ''
      },

      /** `/s/:slug/file` and `/s/:slug/download`. */
      bytes(request: Request, set: ResponseSet, decision: BytesDecision, disposition: Disposition) {
        switch (decision.kind) {
          case 'missing':
            return notFound(set)
          case 'gone':
            return gone(set, decision)
          case 'locked':
            return decision.gate === 'password' ? refused(set, 401, 'refused.locked') : refused(set, 403, 'refused.first')
          case 'ungranted':
            return refused(set, 403, 'refused.first')
          case 'no_download':
          case 'unstampable': {
            const { title, message } = refusalText(t, decision.kind === 'no_download' ? 'refused.noDownload' : 'refused.unstampable')
            return html(
              set,
              decision.kind === 'no_download' ? 403 : 422,
              messagePage(page, title, message),
              robotsHeaders(decision.shared.link.searchEngineVisible),
            )
          }
          case 'busy':
            set.status = 503
            Object.assign(set.headers, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '2' })
            return 'Your copy of this document is being prepared for many readers right now. Try again in a moment.'
        }
        const { shared, stamped } = decision
        if (decision.visitToken) set.headers['set-cookie'] = visitCookie(shared.link, decision.visitToken)
        const headers = pdfHeaders(shared, disposition)
        // A watermarked link's reader gets their own copy (its ETag names the PDF version and the text drawn).
        if (stamped)
          return sendFile(request, (range) => slice(Bun.file(stamped.path), range), {
            size: stamped.size,
            etag: etagOf(new Bun.CryptoHasher('sha256').update(`${shared.file.sha256}\n${stamped.text}`).digest('hex')),
            disposition: headers['content-disposition']!,
            headers: { ...takeSetHeaders(set), ...headers },
          })
        return sendFile(request, (range) => ctx.blobs.body(shared.file.blobKey, range), {
          size: shared.file.size,
          etag: etagOf(shared.file.sha256),
          disposition: headers['content-disposition']!,
          headers: { ...takeSetHeaders(set), ...headers },
        })
      },
    }
  }
}
