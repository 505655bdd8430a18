import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import { rateLimitFor } from '../limits/rate-limit'
import type { SharedLink } from '../links/find-shared-link'
import { readerEventStatements, readerNews } from '../notifications/reader-events'
import { drizzleSqlOf } from '../../db/database'
import { randomId } from '../../lib/ids'
import type { GoneAccess, LinkAccess } from './link-access'

/**
 * What the agreement form (`POST /s/:slug/agreement`) decided: the link is missing or gone, or has no agreement
 * for this reader to accept yet (`no_form`: none, or an earlier gate first); the reader is in already (`in`);
 * the text changed since the page was shown (`changed`: show the new one); or it is `accepted`, recorded.
 */
export type AgreementDecision =
  | { kind: 'missing' }
  | GoneAccess
  | { kind: 'no_form' }
  | { kind: 'in'; link: SharedLink['link'] }
  | { kind: 'changed'; shared: SharedLink }
  | { kind: 'accepted'; link: SharedLink['link'] }
  | { kind: 'rate_limited'; link: SharedLink['link']; retryAfterSeconds: number }

/**
 * Acceptances recorded per link and client address an hour. Each is a row the owner keeps (and may be told of):
 * a client that never keeps the acceptance cookie could otherwise write one per POST, up to the share routes'
 * 600 a minute, and push real acceptances out of the owner's list. An office behind one address still fits.
 */
export const ACCEPTANCES_PER_HOUR = 30

/**
 * Records a reader's acceptance of a link's agreement: when, the version of the text they were shown, and
 * their address when the link asked for one. Only the version the page showed is accepted: words changed
 * meanwhile are shown first. A reader whose address the link knows is recorded once per version; others at most
 * ACCEPTANCES_PER_HOUR times per link from one client address.
 */
export function agreementAcceptor(ctx: AppContext) {
  const { acceptances } = ctx.db.tables
  const makesNews = readerNews(ctx)
  const perClient = rateLimitFor(ctx, 'agreement acceptances per link and client', {
    perMinute: ACCEPTANCES_PER_HOUR,
    windowMs: 60 * 60 * 1000,
  })
  /** A reader with a known address who accepted this version already is let in again without a second row. */
  const acceptedBefore = async (linkId: string, version: number, reader: string) =>
    (
      await ctx.db.orm
        .select({ id: acceptances.id })
        .from(acceptances)
        .where(and(eq(acceptances.linkId, linkId), eq(acceptances.version, version), eq(acceptances.reader, reader)))
        .limit(1)
    ).length > 0
  return async (input: {
    /** The link and what the reader's cookies open of it (link-access.ts). */
    access: LinkAccess
    version: string
    accept: boolean
    client: string
  }): Promise<AgreementDecision> => {
    const { access } = input
    if (access.kind !== 'open') return access
    const { shared } = access
    const { link } = shared
    if (link.agreement === null || access.gate === 'password' || access.gate === 'reader') return { kind: 'no_form' }
    if (access.gate === null) return { kind: 'in', link }
    if (!input.accept || input.version !== String(link.agreementVersion)) return { kind: 'changed', shared }
    const now = ctx.now()
    if (access.reader !== null && (await acceptedBefore(link.id, link.agreementVersion, access.reader))) return { kind: 'accepted', link }
    const decision = await perClient.hit(`${link.id}\n${input.client}`, now)
    if (decision && !decision.allowed) return { kind: 'rate_limited', link, retryAfterSeconds: decision.resetSeconds }
    const accepted = ctx.db.orm
      .insert(acceptances)
      .values({ id: randomId(), linkId: link.id, fileId: link.fileId, version: link.agreementVersion, reader: access.reader, at: now })
    if (await makesNews(shared.file.ownerId, link)) {
      // The owner hears of it in the same transaction as the acceptance itself.
      const event = readerEventStatements.other('acceptance', {
        ownerId: shared.file.ownerId,
        linkId: link.id,
        at: now,
        reader: access.reader,
      })
      await ctx.db.orm.batch([accepted, ctx.db.orm.run(drizzleSqlOf(event.sql, event.args))])
      ctx.jobs.wake('outbox')
    } else await accepted
    return { kind: 'accepted', link }
  }
}
