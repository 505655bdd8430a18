import { rowReader } from '../../db/rows'
import { files } from '../../db/schema'

/**
 * A files row as drizzle's select() gives it, read from the plain values of a kept prepared statement
 * (ctx.sql): the per-request lookups, by owner and id and by share slug, select these columns.
 */
export const fileRows = rowReader(files)
