import { type Column, getTableColumns, getTableName, type Table } from 'drizzle-orm'

/**
 * Plain-SQL reads of a drizzle table that give exactly what drizzle's `select()` gives: the column list for
 * the SELECT and a mapper from the row's values, in that order, to the typed row (camelCase keys, booleans
 * from 0/1). Built from the schema, so a new column can never be forgotten here. Made for the table of an
 * opened database (`ctx.db.tables`): each dialect's columns read their own driver's values (PostgreSQL's
 * bigint arrives as text). The column names, hence the SELECT list, are the same in both.
 */
export function rowReader<T extends Table>(table: T) {
  const columns: [string, Column][] = Object.entries(getTableColumns(table))
  return {
    /** `"seq", "id", "owner_id", …` for `SELECT … FROM <table>`. */
    columns: columns.map(([, column]) => `"${column.name}"`).join(', '),
    /** The same, each qualified by `alias`, for a join: `f."seq", f."id", …`. */
    columnsOf: (alias: string) => columns.map(([, column]) => `${alias}."${column.name}"`).join(', '),
    /** How many values a row of this table takes in a SELECT list (to read a join's values in parts). */
    width: columns.length,
    table: `"${getTableName(table)}"`,
    read(values: unknown[]): T['$inferSelect'] {
      const row: Record<string, unknown> = {}
      for (let i = 0; i < columns.length; i++) {
        const [key, column] = columns[i]!
        const value = values[i]
        row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value)
      }
      return row as T['$inferSelect']
    },
  }
}

export type RowReader<T extends Table> = ReturnType<typeof rowReader<T>>
