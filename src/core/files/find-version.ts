import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import { getOwnedFile } from './get-owned-file'
import type { FileVersionRow } from '../../db/tables'
import { versionNotFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'

export type VersionKey = { ownerId: string; id: string; versionId: string }

/** The stored PDF of one version of an owner's file (the current one included): what its download sends. */
export type VersionBlob = Pick<FileVersionRow, 'blobKey' | 'filename' | 'size' | 'sha256'>

/** Another user's file answers 404 like a missing one; so does a version of another file. */
export async function findOwnedVersion(ctx: AppContext, input: VersionKey): Promise<VersionBlob> {
  const file = await getOwnedFile(ctx, input)
  if (input.versionId === file.versionId) return file
  const kept = await findKeptVersion(ctx, file.id, input.versionId)
  if (!kept) throw versionNotFound()
  return kept
}

/** A previous version of the file `fileId` (whose ownership the caller has checked), if it is kept. */
export async function findKeptVersion(ctx: AppContext, fileId: string, versionId: string): Promise<FileVersionRow | undefined> {
  const { fileVersions } = ctx.db.tables
  if (!isWellFormedId(versionId)) return undefined
  const [row] = await ctx.db.orm
    .select()
    .from(fileVersions)
    .where(and(eq(fileVersions.id, versionId), eq(fileVersions.fileId, fileId)))
  return row
}
