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
