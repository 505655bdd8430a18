import type { FileTables } from './files'
import type { Kit } from './kit'
import type { OwnerTables } from './owners'

/** Rooms (core/rooms): an owner's named, ordered set of their files, shared through one link (docs/rooms.md). */
export function roomTables(k: Kit, { owners, files }: { owners: OwnerTables['owners']; files: FileTables['files'] }) {
  /**
   * A room. Its links are rows of `links` with `room_id` set (exactly one default link, made with the room: the
   * Room resource's shareUrl). Deleting the owner deletes their rooms; deleting a room keeps its files.
   */
  const rooms = k.table(
    'rooms',
    {
      /** Creation order: the key of the newest-first list and its cursor. */
      seq: k.seq(),
      id: k.text('id').notNull().unique(),
      ownerId: k
        .text('owner_id')
        .notNull()
        .references(() => owners.id, { onDelete: 'cascade' }),
      name: k.text('name').notNull(),
      description: k.text('description').notNull(),
      createdAt: k.millis('created_at').notNull(),
      updatedAt: k.millis('updated_at').notNull(),
    },
    (table) => [k.index('rooms_owner_seq_idx').on(table.ownerId, table.seq)],
  )

  /**
   * The documents of a room, in the order readers see them (`position`, from 0), each in a folder (`""`: the top;
   * else a path such as `Financials/2025`). A file is at most once in a room, and may be in several rooms;
   * deleting the file takes it out of every room.
   */
  const roomItems = k.table(
    'room_items',
    {
      roomId: k
        .text('room_id')
        .notNull()
        .references(() => rooms.id, { onDelete: 'cascade' }),
      fileId: k
        .text('file_id')
        .notNull()
        .references(() => files.id, { onDelete: 'cascade' }),
      folder: k.text('folder').notNull(),
      position: k.integer('position').notNull(),
    },
    (table) => [k.primaryKey({ columns: [table.roomId, table.fileId] }), k.index('room_items_file_idx').on(table.fileId)],
  )

  return { rooms, roomItems }
}
export type RoomTables = ReturnType<typeof roomTables>
