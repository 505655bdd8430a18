import { versionedCache } from '../../db/versioned-cache'
import { notFound } from '../../errors'
import { isWellFormedId } from '../../lib/ids'
import type { AppContext } from '../context'
import { FILE_WITH_LINK, readFileWithLink, type FileWithLink } from './file-rows'

const OWNED_FILE = `${FILE_WITH_LINK} WHERE f."id" = ? AND f."owner_id" = ?`

/**
 * One file of its owner, with its default link's fields. A malformed id, an unknown id and another user's id
 * all answer the same 404. Runs on every GET/PATCH/PUT/DELETE of a file, hence a kept prepared statement (ctx.db.hot).
 */
export async function getOwnedFile(ctx: AppContext, input: OwnedFileKey): Promise<FileWithLink> {
  const row = await findOwnedFile(ctx, input)
  if (!row) throw notFound()
  return row
}

type OwnedFileKey = { ownerId: string; id: string }

async function findOwnedFile(ctx: AppContext, input: OwnedFileKey): Promise<FileWithLink | undefined> {
  if (!isWellFormedId(input.id)) return undefined
  const raw = await ctx.db.hot.get(OWNED_FILE, [input.id, input.ownerId])
  return raw && readFileWithLink(ctx.db.rows, raw)
}

/**
 * getOwnedFile for GET /api/files/:id, the most frequent API call (clients polling views), with found rows
 * kept in a versioned cache that any commit empties, by any connection including view counts: the answer
 * is always what the database holds now, without reading it when nothing has changed.
 */
export function ownedFileReader(ctx: AppContext): (input: OwnedFileKey) => Promise<FileWithLink> {
  const cache = versionedCache<FileWithLink>(ctx.db.hot, { ownCommits: true })
  return async (input) => {
    const row = await cache(`${input.ownerId}/${input.id}`, () => findOwnedFile(ctx, input))
    if (!row) throw notFound()
    return row
  }
}
