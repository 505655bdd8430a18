import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../context'
import { discardBlob } from '../../files/discard-blob'
import { usageOf } from '../../files/usage'
import { badRequest, lastAdmin, userNotFound } from '../../../errors'
import { findUserByName } from './find-user'
import { keepsAnEnabledAdmin } from './last-admin'

/**
 * Removes a user and their tokens. A user who still owns files is kept unless `deleteFiles` is set, so a
 * typo cannot silently destroy someone's documents. Returns how many files went with them.
 *
 * With `keepAnAdmin` (an admin's request) the last enabled admin is refused (409), decided inside the deleting
 * statements (last-admin.ts): when it holds, none of them removes anything. The CLI may remove anyone: it is
 * the way back in, and `user add --admin` makes a new admin.
 */
export async function removeUser(
  ctx: AppContext,
  input: { name: string; deleteFiles: boolean; keepAnAdmin?: boolean },
): Promise<{ id: string; removedFiles: number }> {
  const { files, fileVersions, owners, users } = ctx.db.tables
  const user = await findUserByName(ctx, input.name)
  const usage = await usageOf(ctx, user.id)
  if (usage.files > 0 && !input.deleteFiles) {
    throw badRequest(`${input.name} owns ${usage.files} file(s); pass --delete-files to remove them together with the user`)
  }
  const removable = input.keepAnAdmin ? keepsAnEnabledAdmin(users, user.id) : undefined
  const [removedVersions, removedFiles, removedUser] = await ctx.db.orm.batch([
    ctx.db.orm
      .delete(fileVersions)
      .where(and(sql`${fileVersions.fileId} IN (SELECT ${files.id} FROM ${files} WHERE ${files.ownerId} = ${user.id})`, removable))
      .returning({ blobKey: fileVersions.blobKey }),
    ctx.db.orm
      .delete(files)
      .where(and(eq(files.ownerId, user.id), removable))
      .returning({ blobKey: files.blobKey }),
    // Tokens go with the user (ON DELETE CASCADE).
    ctx.db.orm
      .delete(users)
      .where(and(eq(users.id, user.id), removable))
      .returning({ id: users.id }),
    // Their rooms, requests, webhooks and channels go with their owners row (ON DELETE CASCADE), removed only
    // when the user row was (the rule above may have kept it).
    ctx.db.orm.delete(owners).where(and(eq(owners.id, user.id), sql`NOT EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${user.id})`)),
  ])
  if (removedUser.length === 0) {
    // Refused by the rule, or removed by someone else meanwhile.
    const [still] = await ctx.db.orm.select({ id: users.id }).from(users).where(eq(users.id, user.id))
    throw still ? lastAdmin() : userNotFound(input.name)
  }
  // Rows first, then bytes (current PDFs and kept versions): a crash in between leaves only unreferenced blobs,
  // which the next start moves aside.
  for (const { blobKey } of [...removedFiles, ...removedVersions]) await discardBlob(ctx, blobKey)
  return { id: user.id, removedFiles: removedFiles.length }
}
