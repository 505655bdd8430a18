import { shareUrlOf } from '../links/share-url'
import type { RoomDto } from '../../routes/rooms/model'
import type { RoomWithItems } from './room-rows'

const iso = (ms: number) => new Date(ms).toISOString()

/** The only way a room leaves the server: the Room resource's fields; its link's slug only inside shareUrl. */
export function toRoomDto(row: RoomWithItems, publicUrl: string): RoomDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    items: row.items.map((item) => ({
      fileId: item.fileId,
      folder: item.folder,
      title: item.title,
      filename: item.filename,
      fileSize: item.size,
      pages: item.pages,
    })),
    shareUrl: shareUrlOf(publicUrl, row.slug),
    views: row.views,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  }
}
