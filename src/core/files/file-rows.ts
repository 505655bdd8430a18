import { sqliteTables, type Tables } from '../../db/database'
import { rowReader } from '../../db/rows'
import type { FileRow, LinkRow } from '../../db/tables'

/**
 * Files and links rows as drizzle's select() gives them, read from the plain values of a kept prepared
 * statement (ctx.db.hot): the per-request lookups, by owner and id and by share slug, select these columns.
 * One pair of readers per opened database's tables (each dialect reads its own driver's values).
 */
const readers = new WeakMap<
  Tables,
  { fileRows: ReturnType<typeof rowReader<Tables['files']>>; linkRows: ReturnType<typeof rowReader<Tables['links']>> }
>()

export function rowReadersOf(tables: Tables) {
  let found = readers.get(tables)
  if (!found) {
    found = { fileRows: rowReader(tables.files), linkRows: rowReader(tables.links) }
    readers.set(tables, found)
  }
  return found
}

/** The column lists of the statements, which are the same for both dialects. */
export const { fileRows: FILE_COLUMNS, linkRows: LINK_COLUMNS } = rowReadersOf(sqliteTables)

/** The fields of a file's default link that the File resource shows (shareUrl, the two switches). */
export type DefaultLinkFields = Pick<LinkRow, 'slug' | 'allowDownload' | 'searchEngineVisible'>

/** A file with its default link's public fields: what the File resource is made from. */
export type FileWithLink = FileRow & DefaultLinkFields

/** SELECT of a file with its default link's fields, for `WHERE f.… = ?`; read the values with `readFileWithLink`. */
export const FILE_WITH_LINK = `SELECT ${FILE_COLUMNS.columnsOf('f')}, l."slug", l."allow_download", l."search_engine_visible"
  FROM "files" f JOIN "links" l ON l."file_id" = f."id" AND l."is_default" = TRUE`

export function readFileWithLink(tables: Tables, values: unknown[]): FileWithLink {
  const { fileRows } = rowReadersOf(tables)
  const [slug, allowDownload, searchEngineVisible] = values.slice(fileRows.width)
  return {
    ...fileRows.read(values),
    slug: String(slug),
    allowDownload: Boolean(allowDownload),
    searchEngineVisible: Boolean(searchEngineVisible),
  }
}
