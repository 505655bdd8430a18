import type { AppContext } from '../context'
import type { SharedLink } from '../links/find-shared-link'
import type { Visit } from '../../routes/share/model'
import { hasLinkCookie, READER_COOKIES, readingToken, visitCookieOf, visitOfToken } from './reader-cookies'
import { createViewCounter, type ViewScope } from './count-view'
import { framedByAllowedOrigin } from '../links/embed-origins'
import { hasGate } from '../links/readers'
import type { Gate, GoneAccess, LinkAccess } from './link-access'
import type { RequestCookies } from '../../lib/cookies'
import type { VisitorKeyOf } from './visitor-salt'
import { type VisitFacts, visitedLinkOf } from './visit-records'
import type { PageSize } from '../previews/page-sizes'

/**
 * What `GET /s/:slug` answers. `page`: the viewer, with the cookies to set — `seen` and `visit` (the reading
 * token) for a counted view, `grant` for a view of a limited link that was counted or repeats a counted one —
 * and `reading` when the viewer may report reading. `ungranted`: a limited link's page served to a request that
 * was not counted (a bot, a prefetch, a visit over the per-address bound): the page, but its bytes stay closed.
 */
export type PageDecision =
  | { kind: 'missing' }
  | GoneAccess
  /** A link that shows pages drawn on the server, whose pages' sizes no renderer could read just now. */
  | { kind: 'busy' }
  /** A room link's document of a limited room, for a reader its index has not let in yet: to the index first. */
  | { kind: 'room_first'; shared: SharedLink }
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

/**
 * The latest visit a visitor made of a link's file within a visit cookie's life (visits_link_at_idx, then the
 * visitor): a room link's visits are of several files, and a document's watermark names a visit of that document.
 */
const LATEST_VISIT = `SELECT "id" FROM "visits" WHERE "link_id" = ? AND "at" >= ? AND "visitor" = ? AND "file_id" = ? ORDER BY "at" DESC LIMIT 1`

export type OpenPage = (input: {
  /** The link and what the reader's cookies open of it (link-access.ts). */
  access: LinkAccess
  cookies: RequestCookies
  visit: Visit
  facts: Omit<VisitFacts, 'visitor' | 'reader'>
}) => Promise<PageDecision>

/** What a view lets the reader have: the cookies to set, the reading token, whether the link's bytes stay closed. */
export type Admission =
  | { kind: 'gone'; state: 'used_up'; embedOrigins: string }
  | { kind: 'in'; set: { seen: boolean; grant: boolean; visitToken: string | null }; reading: { token: string } | null; ungranted: boolean }

export type Admit = (input: {
  access: Extract<LinkAccess, { kind: 'open' }>
  scope: ViewScope
  cookies: RequestCookies
  visit: Visit
  facts: Omit<VisitFacts, 'visitor' | 'reader'>
}) => Promise<Admission>

/**
 * Counts the view of a link's page past its gates (`scope`: a file link's page, a room link's index, a room's
 * document: count-view.ts) and says what the reader gets of it. Grants of a limited link go only to counted views
 * and to true repeats of one (the signed `pdfshare_seen` of this link), never to a request that was not counted.
 * A room's document is not a view of the room link: its `seen` cookie is the room's, so only its mark tells a
 * repeat, and its grant is the one the room's index gave.
 */
export function viewAdmitter(ctx: AppContext, visitorKeyOf: VisitorKeyOf): Admit {
  const countView = createViewCounter(ctx, visitorKeyOf)
  return async ({ access, scope, cookies, visit, facts }) => {
    const { shared, limited } = access
    const { link } = shared
    const admit = (set: { seen?: boolean; grant?: boolean; visitToken?: string | null } = {}, reading: { token: string } | null = null) =>
      ({
        kind: 'in',
        set: { seen: false, grant: false, visitToken: null, ...set },
        reading,
        ungranted: limited && !access.granted && !set.grant,
      }) as const
    // A watermark names the reader's visit: a reader who repeats a visit (the view counter sees the same visitor:
    // another browser on the same address, say) without its cookie gets the cookie of that visit again.
    const repeated = async (): Promise<{ visitToken?: string }> => {
      const now = ctx.now()
      if (scope === 'room' || link.watermark === null || !visit.userAgent) return {}
      if (visitOfToken(ctx.signingKey, visitCookieOf(cookies), link.id, now)) return {}
      const visitor = await visitorKeyOf({ clientIp: visit.clientIp, userAgent: visit.userAgent, now })
      const row = await ctx.db.hot.get(LATEST_VISIT, [link.id, now - READER_COOKIES.visit.lifetimeMs, visitor, link.fileId])
      return row ? { visitToken: readingToken(ctx.signingKey, { id: String(row[0]), linkId: link.id }, now) } : {}
    }
    // A visitor counted within the repeat window: not counted again, and as entitled as that view was.
    if (scope !== 'document') {
      // A grant holder of a limited link was let in already: they keep reading without using another view.
      if (access.granted) return admit(await repeated())
      if (hasLinkCookie(ctx.signingKey, 'seen', link, cookies, ctx.now())) return admit({ grant: limited, ...(await repeated()) })
    }
    const { outcome, visit: record } = await countView({
      link: visitedLinkOf(shared),
      scope,
      ownerId: shared.file.ownerId,
      // A frame on a site the owner let frame the link is a reader's visit like the page opened on its own.
      visit: framedByAllowedOrigin(link, visit) ? { ...visit, fetchDest: 'document' } : visit,
      facts: { ...facts, reader: access.reader },
    })
    ctx.metrics.view(outcome)
    if (outcome === 'limit_reached') return { kind: 'gone', state: 'used_up', embedOrigins: link.embedOrigins }
    if (outcome === 'not_counted') return admit(await repeated())
    const token = record ? readingToken(ctx.signingKey, { id: record.id, linkId: link.id }, ctx.now()) : null
    // A reader who asked not to be tracked gets no token in the page: the viewer then reports no reading at all.
    return admit(
      { seen: scope !== 'document', grant: limited && scope !== 'document', visitToken: token },
      token && record?.tracked ? { token } : null,
    )
  }
}

/**
 * Decides what a request for a link's page gets (a file link's, or a room link's document: `link.roomId` set):
 * the link's state and the reader's cookies first (link-access.ts), then the view (viewAdmitter; a frame counts
 * only on a site the link may be framed by). A room's document of a limited room link opens only with the grant
 * its index gave (`room_first`: the reader is sent to the index, whose view is the one the limit counts).
 */
export function pageOpener(
  ctx: AppContext,
  built: {
    visitorKeyOf: VisitorKeyOf
    firstPageOf: (file: SharedLink['file']) => Promise<PageSize | undefined>
    sizesOf: (file: SharedLink['file']) => Promise<string | 'unreadable' | 'password' | 'busy'>
  },
): OpenPage {
  const admitView = viewAdmitter(ctx, built.visitorKeyOf)
  return async ({ access, cookies, visit, facts }) => {
    if (access.kind !== 'open') return access
    const { shared, limited } = access
    const { link } = shared
    if (access.gate) return { kind: 'gate', gate: access.gate, shared }
    const scope = link.roomId === null ? 'link' : 'document'
    if (scope === 'document' && limited && !access.granted) return { kind: 'room_first', shared }
    const firstPage = (await built.firstPageOf(shared.file)) ?? null
    // Pages drawn on the server where the PDF is not sent, and where each reader's pages carry their watermark (the
    // reader's download is their stamped copy: pdf.js over a copy made per reader would cost each a full rewrite).
    const sizes = link.allowDownload && link.watermark === null ? null : await built.sizesOf(shared.file)
    if (sizes === 'busy') return { kind: 'busy' }
    const images: Extract<PageDecision, { kind: 'page' }>['images'] =
      sizes === null ? null : sizes === 'unreadable' || sizes === 'password' ? { problem: sizes } : { sizes }
    const admission = await admitView({ access, scope, cookies, visit, facts })
    if (admission.kind === 'gone') return admission
    const { ungranted } = admission
    return {
      kind: 'page',
      shared,
      set: admission.set,
      reading: admission.reading,
      ungranted,
      private: hasGate(link) || limited,
      // An ungranted page's images stay closed like its bytes.
      firstPage: ungranted ? null : firstPage,
      images: ungranted ? null : images,
    }
  }
}
