import { getTableName, is } from 'drizzle-orm'
import { getTableConfig as pgConfig, PgTable } from 'drizzle-orm/pg-core'
import { getTableConfig as sqliteConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'

type AnyConfig = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>

/**
 * What a table's two dialects must agree on, as plain data: its name, and per column its name, the JavaScript
 * type its values come back as (drizzle's `dataType`: string, number, boolean, date, json…), nullability,
 * whether it has a default, may be left out of an insert and is the primary key; the keys, uniques, indexes and references. The SQL column
 * types are the one thing allowed to differ (`integer` as a boolean on SQLite is `boolean` on PostgreSQL).
 */
export function tableShape(config: AnyConfig) {
  const names = (columns: { name: string }[]) => columns.map((column) => column.name)
  return {
    name: config.name,
    columns: Object.fromEntries(
      config.columns.map((column) => [
        column.name,
        {
          dataType: valueType(column),
          notNull: column.notNull,
          hasDefault: column.default !== undefined,
          // Whether an insert may leave it out: a default, or a key the database fills in (SQLite's integer key, an identity).
          optional: column.hasDefault,
          primary: column.primary,
        },
      ]),
    ),
    primaryKeys: config.primaryKeys.map((key) => names(key.columns)),
    unique: [
      ...config.columns.filter((column) => column.isUnique).map((column) => ({ name: column.uniqueName, columns: [column.name] })),
      ...config.uniqueConstraints.map((constraint) => ({ name: constraint.getName(), columns: names(constraint.columns) })),
    ],
    indexes: config.indexes.map((index) => ({
      name: index.config.name,
      columns: (index.config.columns as { name: string }[]).map((column) => column.name),
      unique: index.config.unique,
      partial: index.config.where !== undefined,
    })),
    foreignKeys: config.foreignKeys.map((key) => {
      const reference = key.reference()
      return {
        columns: names(reference.columns),
        table: getTableName(reference.foreignTable),
        foreign: names(reference.foreignColumns),
        onDelete: key.onDelete,
      }
    }),
  }
}

/**
 * The JavaScript type a column's values come back as. drizzle calls a column of a custom type `custom`; the one
 * custom type the schemas use is PostgreSQL's `bytea` for SQLite's `blob` in buffer mode: a Buffer either way.
 */
function valueType(column: AnyConfig['columns'][number]): string {
  if (column.dataType !== 'custom') return column.dataType
  return column.getSQLType() === 'bytea' ? 'buffer' : `custom ${column.getSQLType()}`
}

/** A table of either dialect, as tableShape gives it. */
export function shapeOf(table: unknown) {
  if (is(table, SQLiteTable)) return tableShape(sqliteConfig(table))
  if (is(table, PgTable)) return tableShape(pgConfig(table))
  throw new Error('not a drizzle table')
}

/**
 * Where two table maps (keyed as the services name the tables) differ: one line per table that is in one map
 * only, or shaped differently (tableShape). Empty when they agree.
 */
export function schemaDifferences(sqlite: Record<string, unknown>, pg: Record<string, unknown>): string[] {
  const differences: string[] = []
  for (const name of new Set([...Object.keys(sqlite), ...Object.keys(pg)])) {
    const [a, b] = [sqlite[name], pg[name]]
    if (!a || !b) {
      differences.push(`${name}: only on ${a ? 'SQLite' : 'PostgreSQL'}`)
      continue
    }
    const [left, right] = [JSON.stringify(shapeOf(a)), JSON.stringify(shapeOf(b))]
    if (left !== right) differences.push(`${name}: SQLite ${left} ≠ PostgreSQL ${right}`)
  }
  return differences
}
