import { t, type Static } from 'elysia'
import { ROOM_LIMITS } from '../../shared/room-shapes'

/** One document of a room, as the Room resource shows it (docs/rooms.md). */
export const RoomItemSchema = t.Object({
  fileId: t.String(),
  folder: t.String({ description: 'Folder path such as "Financials/2025"; "" for the top' }),
  title: t.String({ description: "The file's title now" }),
  filename: t.String({ description: "The file's filename now" }),
  fileSize: t.Integer({ description: 'Size of its current PDF in bytes' }),
  pages: t.Union([t.Integer(), t.Null()], { description: 'Pages of its current PDF; null until counted' }),
})

/** The Room resource, as docs/rooms.md describes it. Written once: routes, OpenAPI, tests. */
export const RoomSchema = t.Object(
  {
    id: t.String({ description: 'Opaque, URL-safe, at most 64 characters' }),
    name: t.String({ description: `At most ${ROOM_LIMITS.name} characters` }),
    description: t.String({ description: `At most ${ROOM_LIMITS.description} characters; "" when none` }),
    items: t.Array(RoomItemSchema, { description: 'The documents, in the order readers see them' }),
    shareUrl: t.String({ description: "The room's default link: <public-url>/s/<slug>" }),
    views: t.Integer({ description: "Counted views through all of the room's links" }),
    createdAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
    updatedAt: t.String({ description: 'ISO 8601 UTC with milliseconds; changes on every successful PUT' }),
  },
  { title: 'Room' },
)
export type RoomDto = Static<typeof RoomSchema>

export const RoomEnvelope = t.Object({ success: t.Literal(true), data: RoomSchema })
export const RoomListEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Array(RoomSchema),
  nextCursor: t.Union([t.String(), t.Null()], { description: 'Pass as ?cursor= for the next page; null on the last page' }),
})
export const RoomDeletedEnvelope = t.Object({ success: t.Literal(true), data: t.Object({ id: t.String() }) })
export const RoomIdParams = t.Object({ id: t.String() })

export const RoomListQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: t.Optional(t.String({ maxLength: 200, description: 'nextCursor of the previous page' })),
})

const ItemInput = t.Object({
  fileId: t.String({ maxLength: 64, description: 'One of your files' }),
  folder: t.Optional(t.String({ maxLength: ROOM_LIMITS.folder * 4, description: 'Folder path ("" or absent: the top)' })),
})
const Items = t.Array(ItemInput, {
  maxItems: ROOM_LIMITS.items,
  description: `The ordered documents (at most ${ROOM_LIMITS.items}); each file at most once, each one of yours`,
})

/** The body of POST /api/rooms. Texts and folders are checked further by core/rooms/rules.ts. */
export const NewRoomJson = t.Object({
  name: t.String({ maxLength: ROOM_LIMITS.name * 4, description: `At most ${ROOM_LIMITS.name} characters, not blank` }),
  description: t.Optional(t.String({ maxLength: ROOM_LIMITS.description * 4 })),
  items: t.Optional(Items),
})

/** The body of PUT /api/rooms/:id: omitted fields stay; items replaces the whole list. */
export const RoomChangesJson = t.Object({
  name: t.Optional(t.String({ maxLength: ROOM_LIMITS.name * 4 })),
  description: t.Optional(t.String({ maxLength: ROOM_LIMITS.description * 4 })),
  items: t.Optional(Items),
})
