import type { AppContext } from '../context'
import type { SharedLink } from '../links/find-shared-link'
import { rateLimitFor } from '../limits/rate-limit'
import type { Outlines, PageImage, PageImages, PageTexts } from '../previews/page-images'
import type { Watermarks } from '../previews/watermarks'
import { isPageWidth, PAGE_WIDTHS, type PageWidth } from '../previews/render-page'
import type { Gate, GoneAccess, LinkAccess } from './link-access'
import type { RequestCookies } from '../../lib/cookies'
import { readerWatermark } from './reader-watermark'

/** Pages one client address (an IPv6 /64) may have drawn in any minute (a sliding one); cached pages are free. */
/** Pages' texts one client address may have read per minute (find reads every page's); kept ones are free. */
export const PAGE_TEXTS_PER_MINUTE = 300

/**
 * What `GET /s/:slug/pages/:n?w=` answers: the page as an image (`image`, with what the image service said), or
 * why not — the link is missing or gone; a gate of it was not passed (`locked`); it has a view limit and the
 * reader holds no grant (`ungranted`); the page number or width is not one (`bad_request`, with the sentence).
 */
export type PageImageDecision =
  | { kind: 'missing' }
  | GoneAccess
  | { kind: 'locked'; gate: Gate }
  | { kind: 'ungranted' }
  | { kind: 'bad_request'; message: string }
  | { kind: 'image'; shared: SharedLink; page: number; width: PageWidth; image: PageImage; watermarked: Watermarked | null }
  /** The page's text (`GET /s/:slug/pages/:n/text`): read, or why not, as an image is drawn. */
  | { kind: 'text'; shared: SharedLink; page: number; text: PageImage }
  /** The PDF's outline (`GET /s/:slug/outline`), read as a page's text is; `page` is 1, which it needs. */
  | { kind: 'outline'; shared: SharedLink; page: number; text: PageImage }

/**
 * A page image with the reader's watermark drawn in (`text`, for its ETag), or why not: the renderers were all busy
 * (`busy`), or the watermark cannot be drawn over this page (`failed`; watermarks.ts).
 */
export type Watermarked = { kind: 'image'; bytes: Buffer; text: string } | { kind: 'busy' } | { kind: 'failed' }

export type OpenPageImage = (input: {
  /** The link and what the reader's cookies open of it (link-access.ts). */
  access: LinkAccess
  cookies: RequestCookies
  /** The page's number, or null when the path holds none (routes/share/model.ts): told only once the link is open. */
  page: number | null
  /** The image's width (`?w=`), `text` for the page's text, `outline` for the document's outline (no page). */
  width: string | null | 'text' | 'outline'
  client: string
}) => Promise<PageImageDecision>

/**
 * Page images and texts open exactly where the PDF's bytes do (service/open-bytes.ts): past every gate, with a grant for
 * a limited link. A reader may have at most PDFSHARE_RATE_LIMIT_PAGE_DRAWS pages drawn in any minute from one address
 * (a sliding minute, counted where every instance sees it); past that they get the placeholder, and cached pages
 * as before.
 */
export function pageImageOpener(
  ctx: AppContext,
  pages: { imageOf: PageImages; textOf: PageTexts; outlineOf: Outlines; watermarks: Watermarks },
): OpenPageImage {
  // Sliding minutes: a fixed one let twice the budget through around its turn (a minute's worth on each side).
  const draws = rateLimitFor(ctx, 'page draws per address', { perMinute: ctx.config.rateLimitPageDraws, sliding: true })
  const reads = rateLimitFor(ctx, 'page texts per address', { perMinute: PAGE_TEXTS_PER_MINUTE, sliding: true })
  const within = (limit: typeof draws, client: string) => async () => {
    const decision = await limit.hit(client, ctx.now())
    return decision === undefined || decision.allowed
  }
  return async ({ access, cookies, page, width: widthText, client }) => {
    if (access.kind !== 'open') return access
    if (access.gate) return { kind: 'locked', gate: access.gate }
    if (access.limited && !access.granted) return { kind: 'ungranted' }
    if (widthText === 'outline')
      return { kind: 'outline', shared: access.shared, page: 1, text: await pages.outlineOf(access.shared.file, within(reads, client)) }
    if (page === null) return { kind: 'bad_request', message: 'The page number must be a whole number from 1.' }
    if (widthText === 'text')
      return { kind: 'text', shared: access.shared, page, text: await pages.textOf(access.shared.file, page, within(reads, client)) }
    const width = Number(widthText ?? 800)
    if (!isPageWidth(width)) return { kind: 'bad_request', message: `The width (?w=) must be one of ${PAGE_WIDTHS.join(', ')}.` }
    const image = await pages.imageOf(access.shared.file, page, width, within(draws, client))
    // A watermarked link's pages are drawn again for each reader, over the cached page: never the page without it.
    const text = readerWatermark(ctx.signingKey, access.shared.link, { reader: access.reader, cookies, now: ctx.now() })
    let watermarked: Watermarked | null = null
    if (text !== null && image.kind === 'rendered') {
      const drawn = await pages.watermarks.imageWith(image.path, text, access.reader)
      watermarked = drawn.kind === 'image' ? { ...drawn, text } : drawn
    }
    return { kind: 'image', shared: access.shared, page, width, image, watermarked }
  }
}
