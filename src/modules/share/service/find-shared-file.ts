import { eq } from 'drizzle-orm'
import type { AppContext } from '../../../context'
import { files, type FileRow } from '../../../db/schema'
import { isWellFormedId } from '../../../lib/ids'

/** The file behind a share slug, or undefined: a malformed slug is never looked up. */
export async function findSharedFile(ctx: AppContext, slug: string): Promise<FileRow | undefined> {
  if (!isWellFormedId(slug)) return undefined
  const [row] = await ctx.db.select().from(files).where(eq(files.slug, slug))
  return row
}
