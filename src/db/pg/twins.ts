import { getTableName } from 'drizzle-orm'
import { getTableConfig as pgConfig, type PgTable } from 'drizzle-orm/pg-core'
import { getTableConfig as sqliteConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { Orm, Tables } from '../database'

type AnyConfig = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>

/**
 * What a table's two dialects must agree on, as plain data: its name, and per column its name, the JavaScript
 * type its values come back as (drizzle's `dataType`: string, number, boolean, date, json…), nullability,
 * whether it has a default and is the primary key; the keys, uniques, indexes and references. The SQL column
 * types are the one thing allowed to differ (`integer` as a boolean on SQLite is `boolean` on PostgreSQL).
 */
export function tableShape(config: AnyConfig) {
  const names = (columns: { name: string }[]) => columns.map((column) => column.name)
  return {
    name: config.name,
    columns: Object.fromEntries(
      config.columns.map((column) => [
        column.name,
        { dataType: valueType(column), notNull: column.notNull, hasDefault: column.default !== undefined, primary: column.primary },
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

/** The shape of a SQLite table and of a PostgreSQL one, as tableShape gives them. */
export const sqliteShape = (table: SQLiteTable) => tableShape(sqliteConfig(table))
export const pgShape = (table: PgTable) => tableShape(pgConfig(table))

/**
 * Where `pg` differs from the SQLite tables every query is written against: one line per table that is missing,
 * extra, or shaped differently (tableShape). Empty when they are twins.
 */
export function twinDifferences(sqlite: Tables, pg: Record<string, PgTable>): string[] {
  const differences: string[] = []
  for (const name of new Set([...Object.keys(sqlite), ...Object.keys(pg)])) {
    const a = sqlite[name as keyof Tables]
    const b = pg[name]
    if (!a || !b) {
      differences.push(`${name}: only on ${a ? 'SQLite' : 'PostgreSQL'}`)
      continue
    }
    const left = JSON.stringify(sqliteShape(a))
    const right = JSON.stringify(pgShape(b))
    if (left !== right) differences.push(`${name}: SQLite ${left} ≠ PostgreSQL ${right}`)
  }
  return differences
}

/** The query-builder entry points the services call on `orm` (drizzle's, and the three openPgDb adds). */
const ORM_METHODS = ['select', 'selectDistinct', 'insert', 'update', 'delete', 'transaction', 'execute', 'batch', 'run', 'all'] as const

/**
 * Makes sure PostgreSQL's drizzle and tables may be used where the SQLite twins' types are expected (database.ts
 * `Tables`, `Orm`), which every query is written against once for both databases. drizzle has no type common
 * to its dialects' query builders, so this is where the two meet — checked when the database opens rather
 * than assumed: every table and column (names, the JavaScript type of its values, nullability, defaults, keys,
 * indexes, references) must be the SQLite one's twin, and drizzle must offer every entry point the services
 * call. A schema that drifted stops the server at start with the difference, never midway through a query.
 * The API and share-page suites run on PostgreSQL to hold up the rest (the builders' run-time behaviour).
 */
export function assertSqliteTwin(
  candidate: { orm: object; tables: Record<string, PgTable> },
  sqlite: Tables,
): asserts candidate is { orm: Orm & object; tables: Tables & Record<string, PgTable> } {
  const differences = twinDifferences(sqlite, candidate.tables)
  const missing = ORM_METHODS.filter((method) => typeof (candidate.orm as Record<string, unknown>)[method] !== 'function')
  if (missing.length > 0) differences.push(`drizzle on PostgreSQL lacks ${missing.join(', ')}`)
  if (differences.length > 0) throw new Error(`the PostgreSQL schema is not the SQLite one's twin:\n${differences.join('\n')}`)
}
