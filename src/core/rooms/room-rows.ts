import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { Tables } from '../../db/database'
import type { RoomRow } from '../../db/tables'
import { notFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import type { AppContext } from '../context'
import type { RoomItem } from './rules'

/** One document of a room as the Room resource shows it: the item and what its file says of itself now. */
export type RoomDocument = {
  fileId: string
  folder: string
  title: string
  filename: string
  size: number
  /** PDFium's count of its current PDF; null until counted (or when PDFium cannot open it). */
  pages: number | null
}

/** A room with what the Room resource adds: its default link's slug, the views of all its links, its documents. */
export type RoomWithItems = RoomRow & { slug: string; views: number; items: RoomDocument[] }

export const roomNotFound = () => notFound('Room not found')

/** The condition "this room is the owner's". */
export const roomOfOwner = ({ rooms }: Tables, ownerId: string, id: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${rooms} WHERE ${rooms.id} = ${id} AND ${rooms.ownerId} = ${ownerId})`

/**
 * The condition "every file of `items` is the owner's": a room never names another user's file, and a request
 * that tries writes nothing (the statements it guards are one transaction).
 */
export function filesOfOwner({ files }: Tables, ownerId: string, items: readonly RoomItem[]): SQL {
  if (items.length === 0) return sql`1 = 1`
  const ids = items.map((item) => item.fileId)
  return sql`(SELECT count(*) FROM ${files} WHERE ${files.ownerId} = ${ownerId} AND ${inArray(files.id, ids)}) = ${ids.length}`
}

/**
 * The INSERTs of a room's items, each only where `condition` holds (the room is the owner's, and so is every file),
 * checked again inside the statement: a file is copied from `files` by id and owner, never taken on the word of the request.
 */
export function insertItems(tables: Tables, roomId: string, ownerId: string, items: readonly RoomItem[], condition: SQL): SQL[] {
  const { files, roomItems } = tables
  return items.map(
    (item) => sql`INSERT INTO ${roomItems} (room_id, file_id, folder, position)
      SELECT ${roomId}, ${files.id}, ${item.folder}, CAST(${item.position} AS integer) FROM ${files}
      WHERE ${files.id} = ${item.fileId} AND ${files.ownerId} = ${ownerId} AND ${condition}`,
  )
}

/** The owner's rooms of `ids` (or the one room) with their default slug, views and documents in order. */
export async function loadRooms(
  ctx: AppContext,
  ownerId: string,
  where: SQL | undefined,
  order: SQL[],
  limit?: number,
): Promise<RoomWithItems[]> {
  const { rooms, links } = ctx.db.tables
  const query = ctx.db.orm
    .select({
      room: rooms,
      slug: links.slug,
      views: sql<number>`(SELECT coalesce(sum(v.views), 0) FROM ${links} v WHERE v.room_id = ${rooms.id})`,
    })
    .from(rooms)
    .innerJoin(links, and(eq(links.roomId, rooms.id), eq(links.isDefault, true)))
    .where(and(eq(rooms.ownerId, ownerId), where))
    .orderBy(...order)
  const found = await (limit === undefined ? query : query.limit(limit))
  const items = await documentsOf(
    ctx,
    found.map((row) => row.room.id),
  )
  return found.map(({ room, slug, views }) => ({ ...room, slug, views: Number(views), items: items.get(room.id) ?? [] }))
}

/** One room of its owner; a malformed id, an unknown one and another user's all answer the same 404. */
export async function getOwnedRoom(ctx: AppContext, input: { ownerId: string; id: string }): Promise<RoomWithItems> {
  if (!isWellFormedId(input.id)) throw roomNotFound()
  const [room] = await loadRooms(ctx, input.ownerId, eq(ctx.db.tables.rooms.id, input.id), [])
  if (!room) throw roomNotFound()
  return room
}

/** The documents of these rooms, each room's in its order, with their files' current names, sizes and pages. */
export async function documentsOf(ctx: AppContext, roomIds: string[]): Promise<Map<string, RoomDocument[]>> {
  const { roomItems, files, pdfPages } = ctx.db.tables
  const byRoom = new Map<string, RoomDocument[]>()
  if (roomIds.length === 0) return byRoom
  const rows = await ctx.db.orm
    .select({
      roomId: roomItems.roomId,
      fileId: roomItems.fileId,
      folder: roomItems.folder,
      title: files.title,
      filename: files.filename,
      size: files.size,
      pages: pdfPages.pages,
    })
    .from(roomItems)
    .innerJoin(files, eq(files.id, roomItems.fileId))
    .leftJoin(pdfPages, eq(pdfPages.blobKey, files.blobKey))
    .where(inArray(roomItems.roomId, roomIds))
    .orderBy(asc(roomItems.roomId), asc(roomItems.position))
  for (const { roomId, ...document } of rows) {
    const list = byRoom.get(roomId) ?? []
    list.push({ ...document, size: Number(document.size) })
    byRoom.set(roomId, list)
  }
  return byRoom
}
