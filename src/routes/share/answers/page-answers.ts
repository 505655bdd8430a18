import { PLACEHOLDER_PREVIEW } from '../../../core/previews/preview-service'
import { hasGate } from '../../../core/links/readers'
import type { GoneAccess } from '../../../core/share/link-access'
import type { PageImageDecision } from '../../../core/share/open-page-image'
import type { RefusalWords, ResponseSet } from './gate-answers'
import { robotsHeaders } from './headers'

type Refuse = (set: ResponseSet, status: number, words: RefusalWords, headers?: Record<string, string>) => string

/**
 * How `GET /s/:slug/pages/:n`, `/pages/:n/text` and `/outline` answer: the page's WebP (or its text and links, or the
 * document's outline, as JSON) with a strong ETag (the PDF version's hash, the page and
 * the width: the same request always gets the same bytes), revalidated on every use and kept by no shared cache;
 * `no-store` when a gate or a view limit let the reader in. Refusals are the share routes' own pages; a page
 * that cannot be drawn is a 422, one past the document's end a 404, busy renderers a 503, a used-up budget the
 * placeholder with 429.
 */
export function pageImageAnswer(
  request: Request,
  set: ResponseSet,
  decision: PageImageDecision,
  kit: { notFound: (set: ResponseSet) => string; gone: (set: ResponseSet, closed: GoneAccess) => string; refused: Refuse },
): Response | string {
  const text = (status: number, body: string, headers: Record<string, string> = {}) =>
    new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers } })
  switch (decision.kind) {
    case 'missing':
      return kit.notFound(set)
    case 'gone':
      return kit.gone(set, decision)
    case 'locked':
      return decision.gate === 'password' ? kit.refused(set, 401, 'refused.locked') : kit.refused(set, 403, 'refused.first')
    case 'ungranted':
      return kit.refused(set, 403, 'refused.first')
    case 'bad_request':
      return text(400, decision.message)
  }
  const { shared, page } = decision
  // A watermarked link's page is never sent without its watermark: a watermark that cannot be drawn or laid is a
  // page that cannot be drawn, and busy renderers are busy renderers.
  const marked = decision.kind === 'image' ? decision.watermarked : null
  const json = decision.kind !== 'image'
  const image = json ? decision.text : marked && marked.kind !== 'image' ? marked : decision.image
  switch (image.kind) {
    case 'failed':
      return text(
        422,
        decision.kind === 'outline'
          ? 'The outline of this document cannot be read.'
          : decision.kind === 'text'
            ? `The text of page ${page} cannot be read.`
            : `Page ${page} of this document cannot be drawn.`,
      )
    case 'no_page':
      return text(404, image.pages === undefined ? 'No such page.' : `This document has ${image.pages} pages.`)
    case 'busy':
      return text(503, 'Pages are being drawn for many readers right now. Try again in a moment.', { 'retry-after': '1' })
    case 'over_budget':
      if (json) return text(429, 'Too many pages read from your address. Try again in a minute.', { 'retry-after': '60' })
      return new Response(Bun.file(PLACEHOLDER_PREVIEW.path), {
        status: 429,
        headers: { 'content-type': 'image/png', 'cache-control': 'no-store', 'retry-after': '60' },
      })
  }
  const watermarked = marked?.kind === 'image' ? marked : null
  const protectedLink = hasGate(shared.link) || shared.link.maxViews !== null
  const headers = {
    'content-type': json ? 'application/json' : 'image/webp',
    'cache-control': protectedLink ? 'private, no-store' : 'private, no-cache',
    etag:
      decision.kind === 'outline'
        ? `"po-${shared.file.sha256.slice(0, 24)}"`
        : decision.kind === 'text'
          ? `"pt2-${shared.file.sha256.slice(0, 24)}-${page}"`
          : `"pg-${shared.file.sha256.slice(0, 24)}-${page}-${decision.width}${watermarked ? `-${watermarkTag(watermarked.text)}` : ''}"`,
    'x-content-type-options': 'nosniff',
    ...robotsHeaders(shared.link.searchEngineVisible),
  }
  if (request.headers.get('if-none-match') === headers.etag) return new Response(null, { status: 304, headers })
  return new Response(watermarked ? new Uint8Array(watermarked.bytes) : Bun.file(image.path), { headers })
}

/** A watermarked image's part of its ETag: its text's digest (a reader's address is in the text, not in the header). */
const watermarkTag = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('base64url').slice(0, 12)
