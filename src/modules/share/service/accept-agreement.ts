import type { AppContext } from '../../../core/context'
import type { SharedLink } from '../../../core/links/find-shared-link'
import type { LinkState } from '../../../core/links/link-state'
import { readerEventStatements, readerNews } from '../../../core/notifications/reader-events'
import { outboxWritten } from '../../../core/webhooks/wake'
import { drizzleSqlOf } from '../../../db/database'
import { randomId } from '../../../lib/ids'
import type { ReadLinkAccess } from './link-access'

/**
 * What the agreement form (`POST /s/:slug/agreement`) decided: the link is missing or gone, or has no agreement
 * for this reader to accept yet (`no_form`: none, or an earlier gate first); the reader is in already (`in`);
 * the text changed since the page was shown (`changed`: show the new one); or it is `accepted`, recorded.
 */
export type AgreementDecision =
  | { kind: 'missing' }
  | { kind: 'gone'; state: Exclude<LinkState, 'active'> }
  | { kind: 'no_form' }
  | { kind: 'in'; link: SharedLink['link'] }
  | { kind: 'changed'; shared: SharedLink }
  | { kind: 'accepted'; link: SharedLink['link'] }

/**
 * Records a reader's acceptance of a link's agreement: when, the version of the text they were shown, and
 * their address when the link asked for one. Only the version the page showed is accepted: words changed
 * meanwhile are shown first.
 */
export function agreementAcceptor(ctx: AppContext, accessOf: ReadLinkAccess) {
  const { acceptances } = ctx.db.tables
  const makesNews = readerNews(ctx)
  return async (input: { slug: string; cookies: string | null; version: string; accept: boolean }): Promise<AgreementDecision> => {
    const access = await accessOf({ slug: input.slug, cookies: input.cookies })
    if (access.kind !== 'open') return access
    const { shared } = access
    const { link } = shared
    if (link.agreement === null || access.gate === 'password' || access.gate === 'reader') return { kind: 'no_form' }
    if (access.gate === null) return { kind: 'in', link }
    if (!input.accept || input.version !== String(link.agreementVersion)) return { kind: 'changed', shared }
    const now = ctx.now()
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
      outboxWritten(ctx)
    } else await accepted
    return { kind: 'accepted', link }
  }
}
