import { frameAncestorsOf, isEmbeddable } from '../../../core/links/embed-origins'
import { hasGate } from '../../../core/links/readers'
import type { LinkRow } from '../../../db/tables'
import type { SharedLink } from '../../../core/links/find-shared-link'
import { contentDisposition } from '../../../http/send-file'

/**
 * The page's policy: scripts, styles, images, fonts and fetches from our origin only; no inline script, no
 * eval, no plugins, no framing by other sites (but those a link names, framingHeaders). `blob:` images are
 * pdf.js's decoded pictures, `data:` ones the viewer stylesheet's icons.
 */
const pagePolicy = (options: { formAction: string; frameAncestors: string }) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "base-uri 'none'",
    `form-action ${options.formAction}`,
    `frame-ancestors ${options.frameAncestors}`,
  ].join('; ')

const PAGE_CSP = pagePolicy({ formAction: "'none'", frameAncestors: "'self'" })

/** The password page posts its form to its own address: the one page whose form may go anywhere. */
const PASSWORD_PAGE_CSP = pagePolicy({ formAction: "'self'", frameAncestors: "'self'" })

/**
 * The policy of a page of a link that other sites may frame (its `embedOrigins`): the same, with those sites
 * as frame ancestors; nothing for any other link. No X-Frame-Options anywhere: every current browser obeys
 * frame-ancestors, which overrides it, and it cannot name several sites.
 */
export function framingHeaders(link: Pick<LinkRow, 'embedOrigins'>, page: 'viewer' | 'form'): Record<string, string> {
  if (!isEmbeddable(link)) return {}
  const formAction = page === 'form' ? "'self'" : "'none'"
  return { 'content-security-policy': pagePolicy({ formAction, frameAncestors: frameAncestorsOf(link) }) }
}

/** The raw PDF (/file, /download): sandboxed, and framed by our own pages only. */
const FILE_CSP = "sandbox; frame-ancestors 'self'"

/** Every HTML answer on /s/*: the viewer page, and the 404 and 403 pages. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'private, no-cache',
  // Its words are in the language the reader's picker (a cookie) or browser (Accept-Language) asks for.
  vary: 'Accept-Language, Cookie',
}

/**
 * The answers that stand in for a link's document (its 410, its password page, the 401 of its bytes):
 * never stored by any cache, never indexed.
 */
export const STAND_IN_HEADERS = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' }

/** The password page's headers: a stand-in whose CSP lets its form post back. */
export const PASSWORD_PAGE_HEADERS = { ...STAND_IN_HEADERS, 'content-security-policy': PASSWORD_PAGE_CSP }

/** The placeholder card given as a password link's preview: the same for every link, nothing of the document. */
export const LOCKED_PREVIEW_HEADERS = {
  'content-type': 'image/png',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-robots-tag': 'noindex, nofollow',
}

/**
 * The placeholder answered while a link's card is still being rendered (`X-Preview: pending`): kept by no
 * cache, so the next request gets the card.
 */
export const PENDING_PREVIEW_HEADERS = {
  'content-type': 'image/png',
  'cache-control': 'no-store',
  'x-preview': 'pending',
  'x-content-type-options': 'nosniff',
  'x-robots-tag': 'noindex, nofollow',
}

/** Keeps search engines away unless the owner made the file visible to them. */
export function robotsHeaders(visible: boolean): Record<string, string> {
  return visible ? {} : { 'x-robots-tag': 'noindex, nofollow' }
}

export type Disposition = 'inline' | 'attachment'

/**
 * The headers of a shared PDF's bytes, viewed inline or downloaded. A row stays the same object while the
 * slug cache holds it, so its headers are built once per version of the file.
 */
export function sharedPdfHeaders(): (row: SharedLink, disposition: Disposition) => Record<string, string> {
  const built = new WeakMap<SharedLink, Record<Disposition, Record<string, string>>>()
  return (row, disposition) => {
    let headers = built.get(row)
    if (!headers) {
      // Opened directly, the PDF is a sandboxed document: no script of it can run on our origin. No other
      // site may frame it: there the browser's own PDF viewer would run the PDF's scripts inside their page.
      // A gate's or a view limit's reader is let in by a cookie: no cache may keep what they were given.
      const isProtected = hasGate(row.link) || row.link.maxViews !== null
      const common = {
        'cache-control': isProtected ? 'no-store' : 'private, no-cache',
        'content-security-policy': FILE_CSP,
        ...robotsHeaders(row.link.searchEngineVisible),
      }
      headers = {
        inline: { ...common, 'content-disposition': contentDisposition(row.file.filename, 'inline') },
        attachment: { ...common, 'content-disposition': contentDisposition(row.file.filename, 'attachment') },
      }
      built.set(row, headers)
    }
    return headers[disposition]
  }
}

/**
 * The headers of a link preview (preview.png). The ETag follows the PDF's bytes and tells the placeholder
 * from a rendering; revalidated on every use, so a shared cache never shows page 1 of a deleted or
 * replaced file.
 */
export function previewHeaders(row: SharedLink, options: { placeholder: boolean }): Record<string, string> & { etag: string } {
  const etag = `"p-${row.file.sha256.slice(0, 24)}${options.placeholder ? '-0' : ''}"`
  return {
    'content-type': 'image/png',
    'cache-control': 'public, no-cache',
    etag,
    'x-content-type-options': 'nosniff',
    ...robotsHeaders(row.link.searchEngineVisible),
  }
}
