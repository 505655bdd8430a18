import type { FileRow, LinkRow } from '../../db/tables'
import { versionedCache } from '../../db/versioned-cache'
import { isWellFormedId } from '../../lib/ids'
import type { AppContext } from '../context'
import { FILE_COLUMNS, LINK_COLUMNS } from '../files/file-rows'

/**
 * A share link and its file, as the public share routes see them. Without the view counts: those are written
 * by the hot connection itself, which the versioned cache cannot see change.
 */
export type SharedLink = {
  link: FileLink
  file: Omit<FileRow, 'views'>
  /** A room link's document (core/rooms/find-room-document.ts): the room it is read in. */
  room?: { id: string; name: string }
}

/** A file's link (`file_id` set, `room_id` NULL), without its view count: what the file share routes serve. */
export type FileLink = Omit<LinkRow, 'views' | 'fileId'> & { fileId: string }

const BY_SLUG = `SELECT ${LINK_COLUMNS.columnsOf('l')}, ${FILE_COLUMNS.columnsOf('f')}
  FROM "links" l JOIN "files" f ON f."id" = l."file_id" WHERE l."slug" = ?`

export type FindSharedLink = (slug: string) => Promise<SharedLink | undefined>

/**
 * The link behind a share slug with its file, or undefined; a malformed slug is never looked up. Runs on
 * every /s/ request (the page, each range request of the viewer, the preview), so found rows are kept in a
 * versioned cache: any edit, replacement or deletion is a commit of another connection and empties it.
 */
export function sharedLinkFinder(ctx: AppContext): FindSharedLink {
  const cache = versionedCache<SharedLink>(ctx.db.hot)
  const { files: fileRows, links: linkRows } = ctx.db.rows
  const load = async (slug: string) => {
    const raw = await ctx.db.hot.get(BY_SLUG, [slug])
    if (!raw) return undefined
    // The join on file_id finds only a file's links: a room's link (file_id NULL) is served by core/rooms.
    const { views: _linkViews, ...link } = linkRows.read(raw) as LinkRow & { fileId: string }
    const { views: _fileViews, ...file } = fileRows.read(raw.slice(linkRows.width))
    return { link, file }
  }
  return (slug) => (isWellFormedId(slug) ? cache(slug, () => load(slug)) : Promise.resolve(undefined))
}
