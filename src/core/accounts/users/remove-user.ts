import { eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../context'
import { discardBlob } from '../../files/discard-blob'
import { usageOf } from '../../files/usage'
import { badRequest } from '../../../errors'
import { findUserByName } from './find-user'

/**
 * Removes a user and their tokens. A user who still owns files is kept unless `deleteFiles` is set, so a
 * typo cannot silently destroy someone's documents. Returns how many files went with them.
 */
export async function removeUser(
  ctx: AppContext,
  input: { name: string; deleteFiles: boolean },
): Promise<{ id: string; removedFiles: number }> {
  const { files, fileVersions, users } = ctx.db.tables
  const user = await findUserByName(ctx, input.name)
  const usage = await usageOf(ctx, user.id)
  if (usage.files > 0 && !input.deleteFiles) {
    throw badRequest(`${input.name} owns ${usage.files} file(s); pass --delete-files to remove them together with the user`)
  }
  const [removedVersions, removedFiles] = await ctx.db.orm.batch([
    ctx.db.orm
      .delete(fileVersions)
      .where(sql`${fileVersions.fileId} IN (SELECT ${files.id} FROM ${files} WHERE ${files.ownerId} = ${user.id})`)
      .returning({ blobKey: fileVersions.blobKey }),
    ctx.db.orm.delete(files).where(eq(files.ownerId, user.id)).returning({ blobKey: files.blobKey }),
    ctx.db.orm.delete(users).where(eq(users.id, user.id)), // tokens go with the user (ON DELETE CASCADE)
  ])
  // Rows first, then bytes (current PDFs and kept versions): a crash in between leaves only unreferenced blobs,
  // which the next start moves aside.
  for (const { blobKey } of [...removedFiles, ...removedVersions]) await discardBlob(ctx, blobKey)
  return { id: user.id, removedFiles: removedFiles.length }
}
