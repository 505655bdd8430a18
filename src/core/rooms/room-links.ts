import { and, asc, desc, eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { HeldKey } from '../idempotency/keep'
import { addOwnedLink } from '../links/create-link'
import type { LinkInput } from '../links/link-input'
import type { LinkRow } from '../../db/tables'
import { getOwnedRoom, roomOfOwner } from './room-rows'

/**
 * A new link of an owner's room, with every control a file's link has (core/links: the same row, `room_id` set).
 * The room is looked up first (404 before a password is hashed); the INSERT holds only while the room is the owner's.
 */
export function createRoomLink(
  ctx: AppContext,
  input: { ownerId: string; roomId: string; link: LinkInput; key?: HeldKey<LinkRow> },
): Promise<LinkRow> {
  return addOwnedLink(ctx, {
    target: { roomId: input.roomId },
    owned: roomOfOwner(ctx.db.tables, input.ownerId, input.roomId),
    found: () => getOwnedRoom(ctx, { ownerId: input.ownerId, id: input.roomId }),
    link: input.link,
    key: input.key,
  })
}

/** A room's links, the default link first, then in creation order; 404 for a room that is not the owner's. */
export async function listRoomLinks(ctx: AppContext, input: { ownerId: string; roomId: string }): Promise<LinkRow[]> {
  const { links, rooms } = ctx.db.tables
  await getOwnedRoom(ctx, { ownerId: input.ownerId, id: input.roomId })
  const rows = await ctx.db.orm
    .select({ link: links })
    .from(links)
    .innerJoin(rooms, eq(rooms.id, links.roomId))
    .where(and(eq(links.roomId, input.roomId), eq(rooms.ownerId, input.ownerId)))
    .orderBy(desc(links.isDefault), asc(links.seq))
  return rows.map((row) => row.link)
}
