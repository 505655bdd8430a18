import { sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { insertLinkWhere, prepareNewLink } from '../links/new-link'
import { randomId } from '../../lib/ids'
import { notFound } from '../../errors'
import { filesOfOwner, getOwnedRoom, insertItems, type RoomWithItems } from './room-rows'
import { type RoomItemInput, roomDescription, roomItems, roomName } from './rules'

export type NewRoomInput = { name: string; description?: string; items?: RoomItemInput[] }

/**
 * A new room of the owner's, with its default link (its shareUrl) and its documents, in one transaction. Every
 * file named must be the owner's: the room's INSERT holds only when all of them are, so another user's file id
 * (or an unknown one) is a 404 and nothing is written.
 */
export async function createRoom(ctx: AppContext, input: { ownerId: string; room: NewRoomInput }): Promise<RoomWithItems> {
  const { rooms } = ctx.db.tables
  const name = roomName(input.room.name)
  const description = roomDescription(input.room.description ?? '')
  const items = roomItems(input.room.items ?? [])
  const link = await prepareNewLink(ctx, {}, { isDefault: true })
  const id = randomId()
  const now = link.createdAt
  const filesOk = filesOfOwner(ctx.db.tables, input.ownerId, items)
  const roomWentIn = sql`EXISTS (SELECT 1 FROM ${rooms} WHERE ${rooms.id} = ${id})`
  const [inserted] = await ctx.db.orm.batch([
    ctx.db.orm.all<{ id: string }>(sql`INSERT INTO ${rooms} (id, owner_id, name, description, created_at, updated_at)
      SELECT ${id}, ${input.ownerId}, ${name}, ${description}, ${now}, ${now} WHERE ${filesOk} RETURNING id`),
    ctx.db.orm.run(insertLinkWhere(ctx.db.tables, link, { roomId: id }, roomWentIn)),
    ...insertItems(ctx.db.tables, id, input.ownerId, items, roomWentIn).map((statement) => ctx.db.orm.run(statement)),
  ])
  if (inserted.length === 0) throw notFound('File not found: a room may hold only your own files')
  return getOwnedRoom(ctx, { ownerId: input.ownerId, id })
}
