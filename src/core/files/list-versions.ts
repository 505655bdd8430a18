import { and, desc, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { notFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'

/** A PDF of a file: the current one, or a previous one kept when it was replaced. */
export type VersionEntry = {
  id: string
  current: boolean
  filename: string
  size: number
  sha256: string
  uploadedAt: number
  replacedAt: number | null
}

/**
 * The versions of an owner's file, newest first: the current PDF, then the previous ones from the most recently
 * replaced. Both reads in one transaction, so a replacement in between cannot list a PDF twice or not at all.
 */
export async function listVersions(ctx: AppContext, input: { ownerId: string; id: string }): Promise<VersionEntry[]> {
  const { files, fileVersions } = ctx.db.tables
  if (!isWellFormedId(input.id)) throw notFound()
  const owned = and(eq(files.id, input.id), eq(files.ownerId, input.ownerId))
  const [current, kept] = await ctx.db.orm.batch([
    ctx.db.orm
      .select({
        id: files.versionId,
        filename: files.filename,
        size: files.size,
        sha256: files.sha256,
        uploadedAt: files.uploadedAt,
      })
      .from(files)
      .where(owned),
    ctx.db.orm
      .select()
      .from(fileVersions)
      .where(eq(fileVersions.fileId, sql`(SELECT ${files.id} FROM ${files} WHERE ${owned})`))
      .orderBy(desc(fileVersions.seq)),
  ])
  const [file] = current
  if (!file) throw notFound()
  return [
    { ...file, current: true, replacedAt: null },
    ...kept.map((version) => ({
      id: version.id,
      current: false,
      filename: version.filename,
      size: version.size,
      sha256: version.sha256,
      uploadedAt: version.uploadedAt,
      replacedAt: version.replacedAt,
    })),
  ]
}
