import { and, eq, inArray, type SQLWrapper, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { linkOwnedBy } from '../links/owned-links'
import { canonicalAddress, READER_CODE_MAIL, withoutAddress } from '../links/readers'
import { watermarkTag } from '../previews/watermarks'
import { badRequest } from '../../errors'

/** What a notification says instead of an erased reader's address. */
export const ERASED_READER = '(erased reader)'

// Deliberately loose, unlike a gate's address: an address kept before the stricter rule (a quoted one) can be erased too.
const ERASABLE = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/

/**
 * Erases one reader from everything of the owner's files (`ownerId` null: of every owner's, the operator's
 * `pdfshare reader erase`), in one batch: the address goes from visits and acceptances (the rows stay: the counts
 * and the fact of an acceptance are the owner's), from the reader events behind notifications, and from the
 * notifications' messages (redacted in their text); the codes waiting for it go, and so do the code mails to it
 * in the mail outbox (whichever owner's link they were for: the outbox does not say). After the batch, the
 * watermarked copies made for the reader leave this server's page cache.
 *
 * Every spelling of the reader's mailbox goes (`ada+cv@acme.com` with `ada@acme.com`, as the allow and deny
 * lists compare them): the spellings the rows hold are read first and compared in canonical form here.
 */
export async function eraseReader(ctx: AppContext, input: { ownerId: string | null; address: string }) {
  const address = input.address.trim().toLowerCase()
  if (!ERASABLE.test(address)) throw badRequest('address must be an email address, e.g. ada@acme.com')
  const canonical = canonicalAddress(address)
  const { visits, acceptances, readerCodes, readerEvents, notificationDeliveries, mailOutbox, files, links } = ctx.db.tables
  const { ownerId } = input
  const ownFiles =
    ownerId === null ? sql`(SELECT ${files.id} FROM ${files})` : sql`(SELECT ${files.id} FROM ${files} WHERE ${files.ownerId} = ${ownerId})`
  // A file's links and a room's (docs/rooms.md): a room link's codes are the reader's too.
  const ownLinks =
    ownerId === null
      ? sql`(SELECT ${links.id} FROM ${links})`
      : sql`(SELECT ${links.id} FROM ${links} WHERE ${linkOwnedBy(ctx.db.tables, ownerId)})`
  const ownerIs = (column: typeof readerEvents.ownerId | typeof notificationDeliveries.ownerId) =>
    ownerId === null ? sql`1 = 1` : sql`${column} = ${ownerId}`
  const codeMails = eq(mailOutbox.kind, READER_CODE_MAIL)
  // The local part finds the candidates; the canonical comparison decides.
  const named = (column: SQLWrapper) =>
    sql`lower(${column}) LIKE ${`%${likeEscaped(canonical.slice(0, canonical.lastIndexOf('@')))}%`} ESCAPE '\\'`

  const candidates = await ctx.db.orm.all<{ spelling: string }>(sql`
    SELECT ${visits.reader} AS spelling FROM ${visits} WHERE ${named(visits.reader)} AND ${visits.fileId} IN ${ownFiles}
    UNION SELECT ${acceptances.reader} FROM ${acceptances} WHERE ${named(acceptances.reader)} AND ${acceptances.fileId} IN ${ownFiles}
    UNION SELECT ${readerEvents.reader} FROM ${readerEvents} WHERE ${named(readerEvents.reader)} AND ${ownerIs(readerEvents.ownerId)}
    UNION SELECT ${readerCodes.email} FROM ${readerCodes} WHERE ${named(readerCodes.email)} AND ${readerCodes.linkId} IN ${ownLinks}
    UNION SELECT ${mailOutbox.toAddress} FROM ${mailOutbox} WHERE ${named(mailOutbox.toAddress)} AND ${codeMails}`)
  const spellings = [...new Set([address, ...candidates.map((row) => row.spelling).filter((one) => canonicalAddress(one) === canonical)])]

  const messages = await ctx.db.orm
    .select({ id: notificationDeliveries.id, title: notificationDeliveries.title, body: notificationDeliveries.body })
    .from(notificationDeliveries)
    .where(
      and(ownerIs(notificationDeliveries.ownerId), sql`(${named(notificationDeliveries.body)} OR ${named(notificationDeliveries.title)})`),
    )
  const redactions = messages
    .map((row) => ({
      row,
      title: withoutAddress(row.title, canonical, ERASED_READER),
      body: withoutAddress(row.body, canonical, ERASED_READER),
    }))
    .filter(({ row, title, body }) => title !== row.title || body !== row.body)

  const [erasedVisits, erasedAcceptances, erasedEvents, erasedMails, , ...redacted] = await ctx.db.orm.batch([
    ctx.db.orm
      .update(visits)
      .set({ reader: null })
      .where(and(inArray(visits.reader, spellings), sql`${visits.fileId} IN ${ownFiles}`))
      .returning({ id: visits.id }),
    ctx.db.orm
      .update(acceptances)
      .set({ reader: null })
      .where(and(inArray(acceptances.reader, spellings), sql`${acceptances.fileId} IN ${ownFiles}`))
      .returning({ id: acceptances.id }),
    ctx.db.orm
      .update(readerEvents)
      .set({ reader: null })
      .where(and(inArray(readerEvents.reader, spellings), ownerIs(readerEvents.ownerId)))
      .returning({ id: readerEvents.id }),
    ctx.db.orm
      .delete(mailOutbox)
      .where(and(inArray(mailOutbox.toAddress, spellings), codeMails))
      .returning({ id: mailOutbox.id }),
    ctx.db.orm.delete(readerCodes).where(and(inArray(readerCodes.email, spellings), sql`${readerCodes.linkId} IN ${ownLinks}`)),
    // Each message only as it was read: one the notifier changed meanwhile is left for the next erasure.
    ...redactions.map(({ row, title, body }) =>
      ctx.db.orm
        .update(notificationDeliveries)
        .set({ title, body })
        .where(
          and(
            eq(notificationDeliveries.id, row.id),
            eq(notificationDeliveries.title, row.title),
            eq(notificationDeliveries.body, row.body),
          ),
        )
        .returning({ id: notificationDeliveries.id }),
    ),
  ])
  const cachedFiles = await ctx.previews.discardReader(watermarkTag(ctx.signingKey, canonical))
  return {
    visits: erasedVisits.length,
    acceptances: erasedAcceptances.length,
    events: erasedEvents.length,
    deliveries: redacted.reduce((sum, rows) => sum + (rows as unknown[]).length, 0),
    mails: erasedMails.length,
    cachedFiles,
  }
}

/** `text` for a LIKE pattern with `\` as its escape: its own `%`, `_` and `\` match themselves. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`)
