import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm'
import type { AppContext } from '../../../context'
import { rowReader } from '../../../db/rows'
import { versionedCache } from '../../../db/versioned-cache'
import { files, type FileRow } from '../../../db/schema'
import { badRequest, notFound } from '../../../errors'
import { isWellFormedId } from '../../../lib/ids'

export const fileRows = rowReader(files)
const OWNED_FILE = `SELECT ${fileRows.columns} FROM ${fileRows.table} WHERE "id" = ? AND "owner_id" = ?`

/**
 * One file of its owner. A malformed id, an unknown id and another user's id all answer the same 404.
 * Runs on every GET/PATCH/PUT/DELETE of a file, hence a kept prepared statement (ctx.sql).
 */
export async function getOwnedFile(ctx: AppContext, input: OwnedFileKey): Promise<FileRow> {
  const row = await findOwnedFile(ctx, input)
  if (!row) throw notFound()
  return row
}

type OwnedFileKey = { ownerId: string; id: string }

async function findOwnedFile(ctx: AppContext, input: OwnedFileKey): Promise<FileRow | undefined> {
  if (!isWellFormedId(input.id)) return undefined
  const raw = await ctx.sql.get(OWNED_FILE, [input.id, input.ownerId])
  return raw && fileRows.read(raw)
}

/**
 * getOwnedFile for GET /api/files/:id, the most frequent API call (clients polling views), with found rows
 * kept in a versioned cache that any commit empties, by any connection including view counts: the answer
 * is always what the database holds now, without reading it when nothing has changed.
 */
export function ownedFileReader(ctx: AppContext): (input: OwnedFileKey) => Promise<FileRow> {
  const cache = versionedCache<FileRow>(ctx.sql, { ownCommits: true })
  return async (input) => {
    const row = await cache(`${input.ownerId}/${input.id}`, () => findOwnedFile(ctx, input))
    if (!row) throw notFound()
    return row
  }
}

export type FilePage = { rows: FileRow[]; nextCursor: string | null }

export type ListInput = {
  ownerId: string
  limit: number
  cursor?: string
  /** Only files whose filename or title contains this (case-insensitive for ASCII letters). */
  search?: string
  order?: 'newest' | 'oldest'
}

/**
 * The owner's files, newest (or oldest) first, by keyset on the insertion sequence: a cursor names the last
 * row seen, so files uploaded while a client pages through neither shift nor repeat rows.
 */
export async function listOwnedFiles(ctx: AppContext, input: ListInput): Promise<FilePage> {
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor)
  const oldestFirst = input.order === 'oldest'
  const pattern = input.search ? `%${input.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined
  const rows = await ctx.db
    .select()
    .from(files)
    .where(
      and(
        eq(files.ownerId, input.ownerId),
        after === undefined ? undefined : oldestFirst ? gt(files.seq, after) : lt(files.seq, after),
        pattern === undefined ? undefined : sql`(${files.filename} LIKE ${pattern} ESCAPE '\\' OR ${files.title} LIKE ${pattern} ESCAPE '\\')`,
      ),
    )
    .orderBy(oldestFirst ? asc(files.seq) : desc(files.seq))
    .limit(input.limit + 1)
  const page = rows.slice(0, input.limit)
  const last = page[page.length - 1]
  return { rows: page, nextCursor: rows.length > input.limit && last ? encodeCursor(last.seq) : null }
}

// The cursor is opaque to clients; inside it is the sequence number of the last row of the page.
function encodeCursor(seq: number): string {
  return Buffer.from(`seq:${seq}`).toString('base64url')
}

function decodeCursor(cursor: string): number {
  const match = /^seq:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'))
  if (!match) throw badRequest('cursor is not valid; pass the nextCursor value of the previous page')
  return Number(match[1])
}
