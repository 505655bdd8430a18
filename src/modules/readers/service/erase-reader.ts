import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../../core/context'
import { readerAddressOf } from '../../../core/links/readers'
import { badRequest } from '../../../errors'

/**
 * Erases one reader's address from every visit and acceptance of the owner's files (`ownerId` null: of every
 * owner's, the operator's `pdfshare reader erase`): the rows stay (the counts and the fact of an acceptance are
 * the owner's), the address is gone from them. One batch. Codes waiting for that address on those links go
 * too. Answers how many rows named it.
 */
export async function eraseReader(ctx: AppContext, input: { ownerId: string | null; address: string }) {
  const address = readerAddressOf(input.address)
  if (address === undefined) throw badRequest('address must be an email address, e.g. ada@acme.com')
  const { visits, acceptances, readerCodes, files, links } = ctx.db.tables
  const ownFiles =
    input.ownerId === null
      ? sql`(SELECT ${files.id} FROM ${files})`
      : sql`(SELECT ${files.id} FROM ${files} WHERE ${files.ownerId} = ${input.ownerId})`
  const ownLinks = sql`(SELECT ${links.id} FROM ${links} WHERE ${links.fileId} IN ${ownFiles})`
  const [erasedVisits, erasedAcceptances] = await ctx.db.orm.batch([
    ctx.db.orm
      .update(visits)
      .set({ reader: null })
      .where(and(eq(visits.reader, address), sql`${visits.fileId} IN ${ownFiles}`))
      .returning({ id: visits.id }),
    ctx.db.orm
      .update(acceptances)
      .set({ reader: null })
      .where(and(eq(acceptances.reader, address), sql`${acceptances.fileId} IN ${ownFiles}`))
      .returning({ id: acceptances.id }),
    ctx.db.orm.delete(readerCodes).where(and(eq(readerCodes.email, address), sql`${readerCodes.linkId} IN ${ownLinks}`)),
  ])
  return { visits: erasedVisits.length, acceptances: erasedAcceptances.length }
}
