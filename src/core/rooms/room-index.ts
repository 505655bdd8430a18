import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import { documentsOf, type RoomDocument } from './room-rows'

/** What a room link's index page shows: the room's name and description, its documents in order. */
export type RoomIndex = { name: string; description: string; documents: RoomDocument[] }

/**
 * The index of the room a link opens (`roomId` of a room link the reader passed the gates of), read now; with
 * `filter`, only the documents whose title (the filename when it has none) holds it, in any case. Undefined when
 * the room is gone.
 */
export async function roomIndexOf(
  ctx: AppContext,
  input: { roomId: string; ownerId: string; filter: string },
): Promise<RoomIndex | undefined> {
  const { rooms } = ctx.db.tables
  const [room] = await ctx.db.orm
    .select({ name: rooms.name, description: rooms.description })
    .from(rooms)
    .where(and(eq(rooms.id, input.roomId), eq(rooms.ownerId, input.ownerId)))
  if (!room) return undefined
  const documents = (await documentsOf(ctx, [input.roomId])).get(input.roomId) ?? []
  const needle = input.filter.trim().toLocaleLowerCase()
  const shown = needle === '' ? documents : documents.filter((d) => (d.title || d.filename).toLocaleLowerCase().includes(needle))
  return { ...room, documents: shown }
}

/** Where a room's document stands in it: the room's name, and the documents before and after it in the room's order. */
export type RoomPlace = { name: string; previous: RoomDocument | null; next: RoomDocument | null }

/**
 * The place of `fileId` in the room now (the document page's way back and on); undefined when the room is gone or
 * the file is no longer in it.
 */
export async function roomPlaceOf(
  ctx: AppContext,
  input: { roomId: string; ownerId: string; fileId: string },
): Promise<RoomPlace | undefined> {
  const index = await roomIndexOf(ctx, { ...input, filter: '' })
  const at = index?.documents.findIndex((d) => d.fileId === input.fileId) ?? -1
  if (!index || at < 0) return undefined
  return { name: index.name, previous: index.documents[at - 1] ?? null, next: index.documents[at + 1] ?? null }
}
