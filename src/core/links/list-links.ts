import { and, asc, desc, eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { LinkRow } from '../../db/tables'
import { notFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import { type Asker, fileOfAsker } from './owned-links'

/** A file's links, the default link first, then in creation order; 404 for a file the asker cannot see. */
export async function listLinks(ctx: AppContext, input: { asker: Asker; fileId: string }): Promise<LinkRow[]> {
  const { files, links } = ctx.db.tables
  if (!isWellFormedId(input.fileId)) throw notFound()
  const [rows, [file]] = await ctx.db.orm.batch([
    ctx.db.orm
      .select({ link: links })
      .from(links)
      .innerJoin(files, eq(files.id, links.fileId))
      .where(and(eq(links.fileId, input.fileId), fileOfAsker(ctx.db.tables, input.asker, input.fileId)))
      .orderBy(desc(links.isDefault), asc(links.seq)),
    ctx.db.orm
      .select({ id: files.id })
      .from(files)
      .where(fileOfAsker(ctx.db.tables, input.asker, input.fileId)),
  ])
  if (!file) throw notFound()
  return rows.map((row) => row.link)
}
