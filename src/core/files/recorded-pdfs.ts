import { eq, sql } from 'drizzle-orm'
import type { AppContext } from '../context'

/** A PDF the database records: a file's current one (`versionId` null) or a kept previous version. */
export type RecordedPdf = {
  fileId: string
  versionId: string | null
  filename: string
  /** The owner's name (a user's, or `team <name>`), for the operator's messages. */
  owner: string
  blobKey: string
  size: number
  sha256: string
}

/** Every PDF the database records, current ones first, read in one transaction (verify, storage migrate). */
export async function recordedPdfs(ctx: AppContext): Promise<RecordedPdf[]> {
  const { files, fileVersions, teams, users } = ctx.db.tables
  // Left joins: a file belongs to a user or to a team (owners), and every file must be listed either way.
  const owner = sql<string>`coalesce(${users.name}, 'team ' || ${teams.name}, '?')`
  const [current, versions] = await ctx.db.orm.batch([
    ctx.db.orm
      .select({
        fileId: files.id,
        filename: files.filename,
        owner,
        blobKey: files.blobKey,
        size: files.size,
        sha256: files.sha256,
      })
      .from(files)
      .leftJoin(users, eq(users.id, files.ownerId))
      .leftJoin(teams, eq(teams.id, files.ownerId)),
    ctx.db.orm
      .select({
        fileId: files.id,
        versionId: fileVersions.id,
        filename: fileVersions.filename,
        owner,
        blobKey: fileVersions.blobKey,
        size: fileVersions.size,
        sha256: fileVersions.sha256,
      })
      .from(fileVersions)
      .innerJoin(files, eq(files.id, fileVersions.fileId))
      .leftJoin(users, eq(users.id, files.ownerId))
      .leftJoin(teams, eq(teams.id, files.ownerId)),
  ])
  return [...current.map((row) => ({ ...row, versionId: null })), ...versions]
}
