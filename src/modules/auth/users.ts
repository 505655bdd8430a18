import { and, count, eq, sum } from 'drizzle-orm'
import type { AppContext } from '../../context'
import { files, users, type UserRow } from '../../db/schema'
import { badRequest, unauthorized, userAlreadyExists, userNotFound } from '../../errors'
import { randomId } from '../../lib/ids'
import { discardBlob } from '../files/service/discard-blob'

const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export type Usage = { files: number; bytes: number }
export type Limits = { maxStorageBytes: number | null; maxFiles: number | null }

export async function addUser(ctx: AppContext, input: { name: string }): Promise<UserRow> {
  if (!USER_NAME.test(input.name)) {
    throw badRequest('A user name is 1–64 characters: letters, digits, ".", "_" or "-", starting with a letter or digit')
  }
  const row: UserRow = { id: randomId(), name: input.name, createdAt: ctx.now(), maxBytes: null, maxFiles: null, passwordHash: null }
  // ON CONFLICT keeps "already exists" a normal answer instead of a constraint error.
  const inserted = await ctx.db.insert(users).values(row).onConflictDoNothing().returning()
  if (inserted.length === 0) throw userAlreadyExists(input.name)
  return row
}

export async function findUserByName(ctx: AppContext, name: string): Promise<UserRow> {
  const [row] = await ctx.db.select().from(users).where(eq(users.name, name))
  if (!row) throw userNotFound(name)
  return row
}

export async function findUserById(ctx: AppContext, id: string): Promise<UserRow> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, id))
  if (!row) throw unauthorized()
  return row
}

export async function usageOf(ctx: AppContext, userId: string): Promise<Usage> {
  const [row] = await ctx.db
    .select({ files: count(), bytes: sum(files.size) })
    .from(files)
    .where(eq(files.ownerId, userId))
  return { files: row?.files ?? 0, bytes: Number(row?.bytes ?? 0) }
}

export function limitsOf(user: Pick<UserRow, 'maxBytes' | 'maxFiles'>): Limits {
  return { maxStorageBytes: user.maxBytes, maxFiles: user.maxFiles }
}

export async function listUsers(ctx: AppContext): Promise<(UserRow & { usage: Usage })[]> {
  const rows = await ctx.db
    .select({ user: users, files: count(files.seq), bytes: sum(files.size) })
    .from(users)
    .leftJoin(files, eq(files.ownerId, users.id))
    .groupBy(users.id)
    .orderBy(users.name)
  return rows.map((row) => ({ ...row.user, usage: { files: row.files, bytes: Number(row.bytes ?? 0) } }))
}

/**
 * Removes a user and their tokens. A user who still owns files is kept unless `deleteFiles` is set, so a
 * typo cannot silently destroy someone's documents. Returns the blob keys the caller must delete.
 */
export async function removeUser(ctx: AppContext, input: { name: string; deleteFiles: boolean }): Promise<{ removedFiles: number }> {
  const user = await findUserByName(ctx, input.name)
  const usage = await usageOf(ctx, user.id)
  if (usage.files > 0 && !input.deleteFiles) {
    throw badRequest(`${input.name} owns ${usage.files} file(s); pass --delete-files to remove them together with the user`)
  }
  const [removedFiles] = await ctx.db.batch([
    ctx.db.delete(files).where(eq(files.ownerId, user.id)).returning({ blobKey: files.blobKey }),
    ctx.db.delete(users).where(and(eq(users.id, user.id))),
  ])
  // Rows first, then bytes: a crash in between leaves only unreferenced blobs, which the next start sweeps.
  for (const { blobKey } of removedFiles) await discardBlob(ctx, blobKey)
  return { removedFiles: removedFiles.length }
}

/** Sets plan limits; `null` means unlimited, `undefined` leaves a limit as it is. */
export async function setQuota(ctx: AppContext, input: { name: string; maxBytes?: number | null; maxFiles?: number | null }): Promise<UserRow> {
  const user = await findUserByName(ctx, input.name)
  const [updated] = await ctx.db
    .update(users)
    .set({
      ...(input.maxBytes !== undefined && { maxBytes: input.maxBytes }),
      ...(input.maxFiles !== undefined && { maxFiles: input.maxFiles }),
    })
    .where(eq(users.id, user.id))
    .returning()
  if (!updated) throw userNotFound(input.name)
  return updated
}
