import { desc, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { badRequest } from '../../errors'
import { loadRooms, type RoomWithItems } from './room-rows'

export type RoomPage = { rows: RoomWithItems[]; nextCursor: string | null }

/**
 * The owner's rooms, newest first, by keyset like the files list: the cursor names the last room seen (its
 * sequence, written `seq:N` in base64url as the files list writes it), so rooms made meanwhile shift nothing.
 */
export async function listOwnedRooms(ctx: AppContext, input: { ownerId: string; limit: number; cursor?: string }): Promise<RoomPage> {
  const { rooms } = ctx.db.tables
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor)
  const rows = await loadRooms(
    ctx,
    input.ownerId,
    after === undefined ? undefined : sql`${rooms.seq} < ${after}`,
    [desc(rooms.seq)],
    input.limit + 1,
  )
  const page = rows.slice(0, input.limit)
  const last = page[page.length - 1]
  return {
    rows: page,
    nextCursor: rows.length > input.limit && last ? Buffer.from(`seq:${last.seq}`).toString('base64url') : null,
  }
}

function decodeCursor(text: string): number {
  const match = /^seq:(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString('utf8'))
  if (!match) throw badRequest('cursor is not valid; pass the nextCursor value of the previous page')
  return Number(match[1])
}
