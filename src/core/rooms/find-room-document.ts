import type { LinkRow } from '../../db/tables'
import { isWellFormedId } from '../../lib/ids'
import type { AppContext } from '../context'
import { FILE_COLUMNS, LINK_COLUMNS } from '../files/file-rows'
import type { SharedLink } from '../links/find-shared-link'

// A room link's document: the link by its slug, the file only while it is in the link's room now.
const DOCUMENT = `SELECT ${LINK_COLUMNS.columnsOf('l')}, ${FILE_COLUMNS.columnsOf('f')}, r."name"
  FROM "links" l JOIN "room_items" ri ON ri."room_id" = l."room_id" JOIN "files" f ON f."id" = ri."file_id"
  JOIN "rooms" r ON r."id" = l."room_id"
  WHERE l."slug" = ? AND ri."file_id" = ?`

// A room link with its first document: what its gates' forms are judged and answered with (the gates are the link's).
const FIRST_DOCUMENT = `SELECT ${LINK_COLUMNS.columnsOf('l')}, ${FILE_COLUMNS.columnsOf('f')}, r."name"
  FROM "links" l JOIN "room_items" ri ON ri."room_id" = l."room_id" JOIN "files" f ON f."id" = ri."file_id"
  JOIN "rooms" r ON r."id" = l."room_id"
  WHERE l."slug" = ? ORDER BY ri."position" LIMIT 1`

export type FindRoomDocument = (slug: string, fileId: string | null) => Promise<SharedLink | undefined>

/**
 * A room link's document (`fileId`), or its first one (null), as a file link's routes take it: the room's link row
 * (its gates, switches and cookies: a reader passes them once for the whole room) with `fileId` set to the
 * document, and the room's id and name. Undefined for a slug that is not a room's, or a file that is not in the room **now**: read from the
 * database on every request, never cached, so a document taken out of the room is closed from the commit on.
 */
export function roomDocumentFinder(ctx: AppContext): FindRoomDocument {
  const { files: fileRows, links: linkRows } = ctx.db.rows
  return async (slug, fileId) => {
    if (!isWellFormedId(slug) || (fileId !== null && !isWellFormedId(fileId))) return undefined
    const raw = fileId === null ? await ctx.db.hot.get(FIRST_DOCUMENT, [slug]) : await ctx.db.hot.get(DOCUMENT, [slug, fileId])
    if (!raw) return undefined
    const { views: _linkViews, ...link } = linkRows.read(raw) as LinkRow
    const { views: _fileViews, ...file } = fileRows.read(raw.slice(linkRows.width))
    const name = String(raw[linkRows.width + fileRows.width])
    return { link: { ...link, fileId: file.id }, file, room: { id: link.roomId!, name } }
  }
}
