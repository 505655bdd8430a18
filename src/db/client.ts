import { createClient, type Client } from '@libsql/client'
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql'
import { type Dialect, dialectOf, useDialect } from './dialect'
import { openHotSql, type HotSql, type SqlArg } from './hot-sql'
import { migrate } from './migrate'
import { BUSY_TIMEOUT_MS, EMBEDDED_PRAGMAS } from './pragmas'
import * as schema from './schema'
import { useTablesOf } from './tables'
import { trackWrites } from './write-tracking'

export type Db = LibSQLDatabase<typeof schema>

/** Runs plain statements (`?` placeholders) and gives each one's rows as arrays of values. */
export type PlainQuery = (sql: string, args?: SqlArg[]) => Promise<unknown[][]>

export type Database = {
  dialect: Dialect
  db: Db
  hot: HotSql
  /** Applies the pending migrations of this dialect; returns how many ran. */
  migrate: () => Promise<number>
  /**
   * Runs `work` in one transaction that holds the database's write lock (SQLite) or an exclusive lock on
   * `meta` (PostgreSQL), so two processes starting together (a server and a CLI command, two instances)
   * take turns. Committed when `work` returns, undone when it throws.
   */
  exclusive: <T>(work: (query: PlainQuery) => Promise<T>) => Promise<T>
  close: () => void
}

/**
 * Opens the metadata database: PostgreSQL for a `postgres://` URL (pg/client.ts), libSQL for anything else.
 * No singleton: the caller owns it and closes it.
 */
export async function openDb(url: string): Promise<Database> {
  const dialect = dialectOf(url)
  useDialect(dialect)
  return dialect === 'postgres' ? openPostgres(url) : openSqliteDb(url)
}

async function openPostgres(url: string): Promise<Database> {
  // Loaded only here: the embedded server never pays for PostgreSQL's client and tables in memory or start-up.
  const [{ openPgDb, toPgPlaceholders }, { migratePg }, pgTables] = await Promise.all([
    import('./pg/client'),
    import('./pg/migrate'),
    import('./pg/schema'),
  ])
  useTablesOf(pgTables)
  const { db, hot, pool, close } = openPgDb(url)
  return {
    dialect: 'postgres',
    db,
    hot,
    migrate: () => migratePg(pool),
    exclusive: (work) =>
      pool.begin(async (tx) => {
        await tx.unsafe('LOCK TABLE meta IN EXCLUSIVE MODE')
        return work(async (sql, args = []) => [...(await tx.unsafe(toPgPlaceholders(sql), args).values())] as unknown[][])
      }),
    close,
  }
}

/**
 * The libSQL database: an embedded file (the default) or a libSQL server.
 *
 * For the embedded file the client gets exactly one connection. Every @libsql/client call on a local file is
 * a synchronous native call, so one connection serialises writes inside this process without locks that
 * span an await (measured before the project started: of 20 concurrent interactive transactions on the
 * default pool of 20 connections, 19 failed with SQLITE_BUSY). It also makes the PRAGMAs below stick: a PRAGMA sent through
 * `execute()` reaches only the connection that ran it. Other processes (the CLI while the server runs) are
 * handled by WAL and the busy timeout. Services use single statements or `batch()`, never interactive
 * transactions. The per-request statements run on a second connection with kept prepared statements
 * (hot-sql.ts); its calls are synchronous as well, so the two connections never wait on each other.
 */
export async function openSqliteDb(url: string): Promise<Database & { client: Client }> {
  useDialect('sqlite') // refuses a process already on PostgreSQL
  useTablesOf(schema)
  const local = url.startsWith('file:')
  const opened = createClient(local ? { url, concurrency: 1, timeout: BUSY_TIMEOUT_MS } : { url })
  for (const pragma of local ? EMBEDDED_PRAGMAS : ['PRAGMA foreign_keys = ON']) await opened.execute(pragma)
  // Every write through this client is counted, so the hot connection's caches see them at once.
  const { client, writes } = trackWrites(opened)
  // Opened after the pragmas above: the second connection finds the file already in WAL mode.
  const hot = openHotSql(url, client, writes)
  return {
    dialect: 'sqlite',
    db: drizzle(client, { schema }),
    client,
    hot,
    migrate: () => migrate(client),
    exclusive: async (work) => {
      const tx = await client.transaction('write')
      try {
        const result = await work(async (sql, args = []) =>
          (await tx.execute({ sql, args: args.map((arg) => (typeof arg === 'boolean' ? Number(arg) : arg)) })).rows.map((row) =>
            Array.from(row),
          ),
        )
        await tx.commit()
        return result
      } finally {
        tx.close() // rolls back whatever was not committed
      }
    },
    close: () => {
      hot.close()
      client.close()
    },
  }
}
