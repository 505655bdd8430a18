import { sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { greaterOf } from '../../db/database'
import { notFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import { filesOfOwner, getOwnedRoom, insertItems, roomNotFound, roomOfOwner, type RoomWithItems } from './room-rows'
import { type RoomItemInput, roomDescription, roomItems, roomName } from './rules'

export type RoomChanges = { name?: string; description?: string; items?: RoomItemInput[] }

/**
 * Changes a room: omitted fields stay; `items` replaces the whole ordered list. One transaction, every statement
 * guarded by the owner and (with items) by every named file being the owner's: another user's room or file is a
 * 404 and nothing is written. A document taken out is closed to readers from the commit on (docs/rooms.md).
 */
export async function updateRoom(ctx: AppContext, input: { ownerId: string; id: string; changes: RoomChanges }): Promise<RoomWithItems> {
  const { rooms, roomItems: itemsTable } = ctx.db.tables
  if (!isWellFormedId(input.id)) throw roomNotFound()
  const name = input.changes.name === undefined ? undefined : roomName(input.changes.name)
  const description = input.changes.description === undefined ? undefined : roomDescription(input.changes.description)
  const items = input.changes.items === undefined ? undefined : roomItems(input.changes.items)
  const guard = sql`${roomOfOwner(ctx.db.tables, input.ownerId, input.id)} AND ${filesOfOwner(ctx.db.tables, input.ownerId, items ?? [])}`
  const [updated] = await ctx.db.orm.batch([
    ctx.db.orm.all<{ id: string }>(sql`UPDATE ${rooms}
      SET name = coalesce(${name ?? null}, name), description = coalesce(${description ?? null}, description),
          updated_at = ${greaterOf(ctx.now(), sql`${rooms.updatedAt} + 1`)}
      WHERE ${rooms.id} = ${input.id} AND ${guard} RETURNING id`),
    ...(items === undefined
      ? []
      : [
          ctx.db.orm.run(sql`DELETE FROM ${itemsTable} WHERE ${itemsTable.roomId} = ${input.id} AND ${guard}`),
          ...insertItems(ctx.db.tables, input.id, input.ownerId, items, guard).map((statement) => ctx.db.orm.run(statement)),
        ]),
  ])
  if (updated.length === 0) {
    await getOwnedRoom(ctx, input) // not the owner's room: its 404
    throw notFound('File not found: a room may hold only your own files')
  }
  return getOwnedRoom(ctx, input)
}
