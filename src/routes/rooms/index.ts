import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { authFailures, FailureSchema } from '../../http/schemas'
import { createRoom } from '../../core/rooms/create-room'
import { deleteRoom } from '../../core/rooms/delete-room'
import { listOwnedRooms } from '../../core/rooms/list-rooms'
import { toRoomDto } from '../../core/rooms/presenter'
import { getOwnedRoom } from '../../core/rooms/room-rows'
import { updateRoom } from '../../core/rooms/update-room'
import { NewRoomJson, RoomChangesJson, RoomDeletedEnvelope, RoomEnvelope, RoomIdParams, RoomListEnvelope, RoomListQuery } from './model'

const tags = ['rooms']
const bodyFailures = { 400: FailureSchema, 404: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...authFailures }

/**
 * The owner's rooms (docs/rooms.md): /api/rooms (a room's links are routes/links'). Rooms take the files' scopes
 * (files:read, files:write), as their links take the links' (links:write). Thin handlers around core/rooms.
 */
export function roomsRoutes(ctx: AppContext, auth: AuthGuard) {
  const publicUrl = ctx.config.publicUrl
  const room = (row: Parameters<typeof toRoomDto>[0]) => ({ success: true as const, data: toRoomDto(row, publicUrl) })

  return new Elysia({ name: 'rooms' })
    .use(auth)
    .post(
      '/api/rooms',
      async ({ body, caller, set, audit }) => {
        const row = await createRoom(ctx, { ownerId: caller.ownerId, room: body })
        await audit('room.created', { roomId: row.id, name: row.name, items: row.items.length })
        set.status = 201
        set.headers.location = `${publicUrl}/api/rooms/${row.id}`
        return room(row)
      },
      {
        auth: 'files:write',
        parse: jsonBody(NewRoomJson, 'files:write'),
        body: NewRoomJson,
        response: { 201: RoomEnvelope, ...bodyFailures },
        detail: {
          summary: 'Create a room: a name, a description and an ordered list of your files in folders, shared through one link',
          tags,
        },
      },
    )
    .get(
      '/api/rooms',
      async ({ caller, query }) => {
        const page = await listOwnedRooms(ctx, { ownerId: caller.ownerId, limit: query.limit ?? 20, cursor: query.cursor })
        return { success: true as const, data: page.rows.map((row) => toRoomDto(row, publicUrl)), nextCursor: page.nextCursor }
      },
      {
        auth: 'files:read',
        query: RoomListQuery,
        response: { 200: RoomListEnvelope, 400: FailureSchema, ...authFailures },
        detail: { summary: "List the caller's rooms, newest first", tags },
      },
    )
    .get('/api/rooms/:id', async ({ caller, params }) => room(await getOwnedRoom(ctx, { ownerId: caller.ownerId, id: params.id })), {
      auth: 'files:read',
      params: RoomIdParams,
      response: { 200: RoomEnvelope, 404: FailureSchema, ...authFailures },
      detail: { summary: 'Get a room', tags },
    })
    .put(
      '/api/rooms/:id',
      async ({ body, caller, params, audit }) => {
        const row = await updateRoom(ctx, { ownerId: caller.ownerId, id: params.id, changes: body })
        await audit('room.changed', { roomId: row.id, changed: Object.keys(body).sort().join(','), items: row.items.length })
        return room(row)
      },
      {
        auth: 'files:write',
        parse: jsonBody(RoomChangesJson, 'files:write'),
        body: RoomChangesJson,
        params: RoomIdParams,
        response: { 200: RoomEnvelope, ...bodyFailures },
        detail: { summary: 'Change a room', description: 'Omitted fields stay; items replaces the whole ordered list.', tags },
      },
    )
    .delete(
      '/api/rooms/:id',
      async ({ caller, params, audit }) => {
        const deleted = await deleteRoom(ctx, { ownerId: caller.ownerId, id: params.id })
        await audit('room.deleted', { roomId: deleted.id })
        return { success: true as const, data: deleted }
      },
      {
        auth: 'files:write',
        params: RoomIdParams,
        response: { 200: RoomDeletedEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: 'Delete a room and its links (its files stay)', tags },
      },
    )
}
