import type { AppContext } from '../context'
import type { SharedLink } from '../links/find-shared-link'
import type { LinkState } from '../links/link-state'
import type { Visit } from '../../routes/share/model'
import { hasLinkCookie, READER_COOKIES, readingToken, visitCookieOf, visitOfToken } from './reader-cookies'
import { createViewCounter } from './count-view'
import { framedByAllowedOrigin } from '../links/embed-origins'
import { hasGate } from '../links/readers'
import type { Gate, LinkAccess } from './link-access'
import type { RequestCookies } from '../../lib/cookies'
import type { VisitorKeyOf } from './visitor-salt'
import type { VisitFacts } from './visit-records'
import type { PageSize } from '../previews/page-sizes'

/**
 * What `GET /s/:slug` answers. `page`: the viewer, with the cookies to set — `seen` and `visit` (the reading
 * token) for a counted view, `grant` for a view of a limited link that was counted or repeats a counted one —
 * and `reading` when the viewer may report reading. `ungranted`: a limited link's page served to a request that
 * was not counted (a bot, a prefetch, a visit over the per-address bound): the page, but its bytes stay closed.
 */
export type PageDecision =
  | { kind: 'missing' }
  | { kind: 'gone'; state: Exclude<LinkState, 'active'>; embedOrigins?: string }
  /** A link that shows pages drawn on the server, whose pages' sizes no renderer could read just now. */
  | { kind: 'busy' }
  /** A gate the reader has yet to pass (its page): the password, their address, the agreement. */
  | { kind: 'gate'; gate: Gate; shared: SharedLink }
  | {
      kind: 'page'
      shared: SharedLink
      set: { seen: boolean; grant: boolean; visitToken: string | null }
      reading: { token: string } | null
      ungranted: boolean
      /** Behind a gate or a view limit: the reader's own page, which no cache may keep for another. */
      private: boolean
      /** Page 1's size in points, once known: the page names page 1's image, drawn on the server, and makes room for it. */
      firstPage: PageSize | null
      /**
       * A link that does not allow downloads shows only pages drawn on the server: every page's size (encoded,
       * page-sizes.ts; '' for a PDF of no pages), or why there are none (PDFium cannot open the PDF, or not
       * without its password). Null for a link whose viewer reads the PDF.
       */
      images: { sizes: string } | { problem: 'unreadable' | 'password' } | null
    }

/** The latest visit a visitor made of a link within a visit cookie's life (visits_link_at_idx, then the visitor). */
const LATEST_VISIT = `SELECT "id" FROM "visits" WHERE "link_id" = ? AND "at" >= ? AND "visitor" = ? ORDER BY "at" DESC LIMIT 1`

export type OpenPage = (input: {
  /** The link and what the reader's cookies open of it (link-access.ts). */
  access: LinkAccess
  cookies: RequestCookies
  visit: Visit
  facts: Omit<VisitFacts, 'visitor' | 'reader'>
}) => Promise<PageDecision>

/**
 * Decides what a request for a link's page gets: the link's state and the reader's cookies first
 * (service/link-access.ts), then the view count (a frame counts only on a site the link may be framed by). Grants of a limited link go only to counted views and to
 * true repeats of one (the signed `pdfshare_seen` of this link), never to a request that was not counted.
 */
export function pageOpener(
  ctx: AppContext,
  built: {
    visitorKeyOf: VisitorKeyOf
    firstPageOf: (file: SharedLink['file']) => Promise<PageSize | undefined>
    sizesOf: (file: SharedLink['file']) => Promise<string | 'unreadable' | 'password' | 'busy'>
  },
): OpenPage {
  const countView = createViewCounter(ctx, built.visitorKeyOf)
  return async ({ access, cookies, visit, facts }) => {
    if (access.kind !== 'open') return access
    const { shared, limited } = access
    const { link } = shared
    if (access.gate) return { kind: 'gate', gate: access.gate, shared }
    const firstPage = (await built.firstPageOf(shared.file)) ?? null
    // Pages drawn on the server where the PDF is not sent, and where each reader's pages carry their watermark (the
    // reader's download is their stamped copy: pdf.js over a copy made per reader would cost each a full rewrite).
    const sizes = link.allowDownload && link.watermark === null ? null : await built.sizesOf(shared.file)
    if (sizes === 'busy') return { kind: 'busy' }
    const images: Extract<PageDecision, { kind: 'page' }>['images'] =
      sizes === null ? null : sizes === 'unreadable' || sizes === 'password' ? { problem: sizes } : { sizes }
    const page = (set: { seen?: boolean; grant?: boolean; visitToken?: string | null } = {}, reading: { token: string } | null = null) => {
      const ungranted = limited && !access.granted && !set.grant
      return {
        kind: 'page',
        shared,
        set: { seen: false, grant: false, visitToken: null, ...set },
        reading,
        ungranted,
        private: hasGate(link) || limited,
        // An ungranted page's images stay closed like its bytes.
        firstPage: ungranted ? null : firstPage,
        images: ungranted ? null : images,
      } as const
    }
    // A watermark names the reader's visit: a reader who repeats a visit (the view counter sees the same visitor:
    // another browser on the same address, say) without its cookie gets the cookie of that visit again.
    const repeated = async (): Promise<{ visitToken?: string }> => {
      const now = ctx.now()
      if (link.watermark === null || !visit.userAgent || visitOfToken(ctx.signingKey, visitCookieOf(cookies), link.id, now)) return {}
      const visitor = await built.visitorKeyOf({ clientIp: visit.clientIp, userAgent: visit.userAgent, now })
      const row = await ctx.db.hot.get(LATEST_VISIT, [link.id, now - READER_COOKIES.visit.lifetimeMs, visitor])
      return row ? { visitToken: readingToken(ctx.signingKey, { id: String(row[0]), linkId: link.id }, now) } : {}
    }
    // A grant holder of a limited link was let in already: they keep reading without using another view.
    if (access.granted) return page(await repeated())
    // A visitor counted within the repeat window: not counted again, and as entitled as that view was.
    if (hasLinkCookie(ctx.signingKey, 'seen', link, cookies, ctx.now())) return page({ grant: limited, ...(await repeated()) })
    const { outcome, visit: record } = await countView({
      link,
      ownerId: shared.file.ownerId,
      // A frame on a site the owner let frame the link is a reader's visit like the page opened on its own.
      visit: framedByAllowedOrigin(link, visit) ? { ...visit, fetchDest: 'document' } : visit,
      facts: { ...facts, reader: access.reader },
    })
    ctx.metrics.view(outcome)
    if (outcome === 'limit_reached') return { kind: 'gone', state: 'used_up', embedOrigins: link.embedOrigins }
    if (outcome === 'not_counted') return page(await repeated())
    const token = record ? readingToken(ctx.signingKey, { id: record.id, linkId: link.id }, ctx.now()) : null
    // A reader who asked not to be tracked gets no token in the page: the viewer then reports no reading at all.
    return page({ seen: true, grant: limited, visitToken: token }, token && record?.tracked ? { token } : null)
  }
}
