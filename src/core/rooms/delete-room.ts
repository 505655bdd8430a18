import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import { isWellFormedId } from '../../lib/ids'
import { roomNotFound } from './room-rows'

/**
 * Deletes an owner's room: its links (and so their URLs) and its list of documents go with it (ON DELETE
 * CASCADE); its files stay. Another user's room answers the 404 of a missing one.
 */
export async function deleteRoom(ctx: AppContext, input: { ownerId: string; id: string }): Promise<{ id: string }> {
  const { rooms } = ctx.db.tables
  if (!isWellFormedId(input.id)) throw roomNotFound()
  const deleted = await ctx.db.orm
    .delete(rooms)
    .where(and(eq(rooms.id, input.id), eq(rooms.ownerId, input.ownerId)))
    .returning({ id: rooms.id })
  if (deleted.length === 0) throw roomNotFound()
  return { id: input.id }
}
