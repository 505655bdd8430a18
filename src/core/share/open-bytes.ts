import type { AppContext } from '../context'
import type { SharedLink } from '../links/find-shared-link'
import type { Watermarks } from '../previews/watermarks'
import type { Visit } from '../../routes/share/model'
import type { Gate, GoneAccess, LinkAccess } from './link-access'
import type { RequestCookies } from '../../lib/cookies'
import { readerWatermark } from './reader-watermark'
import { downloadRecorder } from './record-download'
import type { VisitFacts } from './visit-records'
import type { VisitorKeyOf } from './visitor-salt'

/**
 * What `/s/:slug/file` (inline) and `/s/:slug/download` (attachment) answer: the PDF's bytes (`bytes`, with the
 * reading token of a download that made a visit of its own, for its cookie), or why not: the link is missing
 * or gone, a gate of it was not passed (`locked`: its password, the reader's address, its agreement), it has a view limit and the reader holds no grant
 * (`ungranted`), or it does not offer downloads (`no_download`: then neither route sends a byte of the PDF). A
 * watermarked link sends its reader's copy (`stamped`), never the PDF without it: when that copy cannot be made,
 * `unstampable` (remembered for that PDF version and text) or `busy` (try again).
 */
export type BytesDecision =
  | { kind: 'missing' }
  | GoneAccess
  | { kind: 'locked'; gate: Gate }
  | { kind: 'ungranted' }
  | { kind: 'no_download'; shared: SharedLink }
  | { kind: 'unstampable'; shared: SharedLink }
  | { kind: 'busy' }
  | { kind: 'bytes'; shared: SharedLink; visitToken: string | null; stamped: Stamped | null }

/** The reader's watermarked copy of the PDF: where it is, its size, and the text drawn (for its ETag). */
export type Stamped = { path: string; size: number; text: string }

export type OpenBytes = (input: {
  /** The link and what the reader's cookies open of it (link-access.ts). */
  access: LinkAccess
  cookies: RequestCookies
  disposition: 'inline' | 'attachment'
  visit: Visit
  facts: Omit<VisitFacts, 'visitor' | 'reader'>
  range: string | null
}) => Promise<BytesDecision>

/**
 * Decides what a request for a link's bytes gets. A download that starts is recorded for the reading analytics
 * before its bytes go (service/record-download.ts); analytics never stand between a reader and a download, so
 * a failure to record it is logged, and the bytes go all the same.
 */
export function bytesOpener(ctx: AppContext, built: { visitorKeyOf: VisitorKeyOf; watermarks: Watermarks }): OpenBytes {
  const recordDownload = downloadRecorder(ctx, built.visitorKeyOf)
  return async ({ access, cookies, disposition, visit, facts, range }) => {
    if (access.kind !== 'open') return access
    if (access.gate) return { kind: 'locked', gate: access.gate }
    if (access.limited && !access.granted) return { kind: 'ungranted' }
    const { shared } = access
    // A link that does not allow downloads never sends its PDF, not even to its own viewer: it shows pages drawn on the server.
    if (!shared.link.allowDownload) return { kind: 'no_download', shared }
    const text = readerWatermark(ctx.signingKey, shared.link, { reader: access.reader, cookies, now: ctx.now() })
    let stamped: Stamped | null = null
    if (text !== null) {
      const copy = await built.watermarks.pdfWith(shared.file, text, access.reader)
      if (copy.kind === 'failed') return { kind: 'unstampable', shared }
      if (copy.kind === 'busy') return copy
      stamped = { path: copy.path, size: copy.size, text }
    }
    if (disposition === 'inline') return { kind: 'bytes', shared, visitToken: null, stamped }
    try {
      const { newToken } = await recordDownload({ shared, visit, facts: { ...facts, reader: access.reader }, cookies, range })
      return { kind: 'bytes', shared, visitToken: newToken, stamped }
    } catch (error) {
      ctx.log.error(`could not record a download of link ${shared.link.id}`, error)
      return { kind: 'bytes', shared, visitToken: null, stamped }
    }
  }
}
