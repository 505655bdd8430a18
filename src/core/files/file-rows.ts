import { type HotRows, sqliteTables } from '../../db/database'
import { rowReader } from '../../db/rows'
import type { FileRow, LinkRow } from '../../db/tables'

/**
 * Files and links rows as drizzle's select() gives them, read from the plain values of a kept prepared
 * statement (ctx.db.hot) by the readers of the opened database (`ctx.db.rows`: each dialect reads its own
 * driver's values): the per-request lookups, by owner and id and by share slug, select these columns, which
 * are the same for both dialects.
 */
export const FILE_COLUMNS = rowReader(sqliteTables.files)
export const LINK_COLUMNS = rowReader(sqliteTables.links)

/** The fields of a file's default link that the File resource shows (shareUrl, the two switches). */
export type DefaultLinkFields = Pick<LinkRow, 'slug' | 'allowDownload' | 'searchEngineVisible'>

/** A file with its default link's public fields: what the File resource is made from. */
export type FileWithLink = FileRow & DefaultLinkFields

/** SELECT of a file with its default link's fields, for `WHERE f.… = ?`; read the values with `readFileWithLink`. */
export const FILE_WITH_LINK = `SELECT ${FILE_COLUMNS.columnsOf('f')}, l."slug", l."allow_download", l."search_engine_visible"
  FROM "files" f JOIN "links" l ON l."file_id" = f."id" AND l."is_default" = TRUE`

export function readFileWithLink(rows: HotRows, values: unknown[]): FileWithLink {
  const [slug, allowDownload, searchEngineVisible] = values.slice(rows.files.width)
  return {
    ...rows.files.read(values),
    slug: String(slug),
    allowDownload: Boolean(allowDownload),
    searchEngineVisible: Boolean(searchEngineVisible),
  }
}
