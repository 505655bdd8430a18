import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { Database } from '../../db/database'
import type { FileWithLink } from './file-rows'
import { badRequest } from '../../errors'
import type { ListOrder } from '../../shared/file-shapes'

export type FilePage = { rows: FileWithLink[]; nextCursor: string | null }

export type ListInput = {
  ownerId: string
  limit: number
  cursor?: string
  /** Only files whose filename or title contains this (case-insensitive for ASCII letters). */
  search?: string
  /** Only files that arrived through this file request (GET /api/requests/:id/files). */
  requestId?: string
  order?: ListOrder
}

/**
 * Each order's sort key and direction; every order pages by keyset, with the upload sequence breaking ties. Name is the title readers see (the filename when the title is
 * empty), A to Z without regard to ASCII case; views and size go from the most to the least.
 */
const ORDERS: Record<ListOrder, { key: ((db: Database) => SQL) | undefined; ascending: boolean }> = {
  newest: { key: undefined, ascending: false },
  oldest: { key: undefined, ascending: true },
  name: {
    key: ({ tables: { files }, portable }) => portable.caseless(sql`coalesce(nullif(${files.title}, ''), ${files.filename})`),
    ascending: true,
  },
  views: { key: ({ tables: { files } }) => sql`${files.views}`, ascending: false },
  size: { key: ({ tables: { files } }) => sql`${files.size}`, ascending: false },
}

type Cursor = { key: string | number | undefined; seq: number }

/**
 * The owner's files in the chosen order, by keyset: a cursor names the last row seen (its sort key and
 * sequence), so files uploaded while a client pages through neither shift nor repeat rows. (Under `views`
 * a file whose count changes meanwhile may move between pages: that order is live.)
 */
export async function listOwnedFiles(ctx: AppContext, input: ListInput): Promise<FilePage> {
  const { files, links } = ctx.db.tables
  const order = input.order ?? 'newest'
  const { ascending } = ORDERS[order]
  const key = ORDERS[order].key?.(ctx.db)
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor, order)
  const pattern = input.search ? `%${input.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined
  const beyond = (left: SQL | typeof files.seq, right: unknown) => (ascending ? sql`${left} > ${right}` : sql`${left} < ${right}`)
  const keyset =
    after === undefined
      ? undefined
      : key === undefined
        ? beyond(files.seq, after.seq)
        : sql`(${beyond(key, after.key)} OR (${key} = ${after.key} AND ${beyond(files.seq, after.seq)}))`
  const direction = ascending ? asc : desc
  const rows = await ctx.db.orm
    .select({
      file: files,
      slug: links.slug,
      allowDownload: links.allowDownload,
      searchEngineVisible: links.searchEngineVisible,
      sortKey: key ?? sql`NULL`,
    })
    .from(files)
    .innerJoin(links, and(eq(links.fileId, files.id), eq(links.isDefault, true)))
    .where(
      and(
        eq(files.ownerId, input.ownerId),
        input.requestId === undefined ? undefined : eq(files.sourceRequestId, input.requestId),
        keyset,
        pattern === undefined
          ? undefined
          : sql`(${ctx.db.portable.likeCaseless(files.filename, pattern)} OR ${ctx.db.portable.likeCaseless(files.title, pattern)})`,
      ),
    )
    .orderBy(...(key === undefined ? [] : [direction(key)]), direction(files.seq))
    .limit(input.limit + 1)
  const page = rows.slice(0, input.limit)
  const last = page[page.length - 1]
  return {
    rows: page.map(({ file, slug, allowDownload, searchEngineVisible }) => ({ ...file, slug, allowDownload, searchEngineVisible })),
    nextCursor: rows.length > input.limit && last ? encodeCursor(order, { key: sortKeyOf(order, last.sortKey), seq: last.file.seq }) : null,
  }
}

/** The row's sort key as the cursor keeps it: a number for views and size (PostgreSQL gives a bigint as text). */
const sortKeyOf = (order: ListOrder, key: unknown): Cursor['key'] =>
  key === null || key === undefined ? undefined : order === 'name' ? String(key) : Number(key)

// The cursor is opaque to clients: the order it belongs to, the last row's sort key and its sequence.
// Newest and oldest keep their first format, "seq:N", so cursors handed out before stay valid.
function encodeCursor(order: ListOrder, cursor: Cursor): string {
  const text = cursor.key === undefined ? `seq:${cursor.seq}` : JSON.stringify([order, cursor.key, cursor.seq])
  return Buffer.from(text).toString('base64url')
}

function decodeCursor(text: string, order: ListOrder): Cursor {
  const invalid = () => badRequest('cursor is not valid; pass the nextCursor value of the previous page, with the same order')
  const decoded = Buffer.from(text, 'base64url').toString('utf8')
  const bySeq = /^seq:(\d{1,15})$/.exec(decoded)
  if (bySeq) {
    if (ORDERS[order].key !== undefined) throw invalid()
    return { key: undefined, seq: Number(bySeq[1]) }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(decoded)
  } catch {
    throw invalid()
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== order || ORDERS[order].key === undefined) throw invalid()
  const [, key, seq] = parsed as [unknown, unknown, unknown]
  if ((typeof key !== 'string' && typeof key !== 'number') || !Number.isSafeInteger(seq)) throw invalid()
  return { key, seq: seq as number }
}
