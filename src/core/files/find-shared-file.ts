import type { FileRow } from '../../db/schema'
import { versionedCache } from '../../db/versioned-cache'
import { isWellFormedId } from '../../lib/ids'
import type { AppContext } from '../context'
import { fileRows } from './file-rows'

/**
 * A file as the public share routes see it. Without `views`: those are written by the hot connection
 * itself, which the versioned cache cannot see change, and no share route shows them.
 */
export type SharedFile = Omit<FileRow, 'views'>

const BY_SLUG = `SELECT ${fileRows.columns} FROM ${fileRows.table} WHERE "slug" = ?`

export type FindSharedFile = (slug: string) => Promise<SharedFile | undefined>

/**
 * The file behind a share slug, or undefined; a malformed slug is never looked up. Runs on every /s/ request
 * (the page, each range request of the viewer, the preview), so found rows are kept in a versioned cache:
 * any edit, replacement or deletion is a commit of another connection and empties it.
 */
export function sharedFileFinder(ctx: AppContext): FindSharedFile {
  const cache = versionedCache<SharedFile>(ctx.sql)
  const load = async (slug: string) => {
    const raw = await ctx.sql.get(BY_SLUG, [slug])
    if (!raw) return undefined
    const { views: _views, ...shared } = fileRows.read(raw)
    return shared
  }
  return (slug) => (isWellFormedId(slug) ? cache(slug, () => load(slug)) : Promise.resolve(undefined))
}
