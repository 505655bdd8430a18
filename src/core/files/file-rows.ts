import { rowReader } from '../../db/rows'
import { files, links, type FileRow, type LinkRow } from '../../db/tables'

/**
 * A files row as drizzle's select() gives it, read from the plain values of a kept prepared statement
 * (ctx.sql): the per-request lookups, by owner and id and by share slug, select these columns.
 */
export const fileRows = rowReader(() => files)
export const linkRows = rowReader(() => links)

/** The fields of a file's default link that the File resource shows (shareUrl, the two switches). */
export type DefaultLinkFields = Pick<LinkRow, 'slug' | 'allowDownload' | 'searchEngineVisible'>

/** A file with its default link's public fields: what the File resource is made from. */
export type FileWithLink = FileRow & DefaultLinkFields

/** SELECT of a file with its default link's fields, for `WHERE f.… = ?`; read the values with `readFileWithLink`. */
export const FILE_WITH_LINK = `SELECT ${fileRows.columnsOf('f')}, l."slug", l."allow_download", l."search_engine_visible"
  FROM "files" f JOIN "links" l ON l."file_id" = f."id" AND l."is_default" = TRUE`

export function readFileWithLink(values: unknown[]): FileWithLink {
  const [slug, allowDownload, searchEngineVisible] = values.slice(fileRows.width)
  return {
    ...fileRows.read(values),
    slug: String(slug),
    allowDownload: Boolean(allowDownload),
    searchEngineVisible: Boolean(searchEngineVisible),
  }
}
