import { createClient, type Client } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { type Database, dialectOf, hotRowsOf, sqlitePortable, sqliteTables } from './database'
import { openHotSql } from './hot-sql'
import { migrate } from './migrate'
import { BUSY_TIMEOUT_MS, EMBEDDED_PRAGMAS } from './pragmas'
import { trackWrites } from './write-tracking'

/**
 * Opens the metadata database: PostgreSQL for a `postgres://` URL (pg/client.ts), libSQL for anything else.
 * No singleton: the caller owns the value and closes it.
 */
export async function openDb(url: string): Promise<Database> {
  if (dialectOf(url) === 'sqlite') return openSqliteDb(url)
  // Loaded only here: the embedded server never pays for PostgreSQL's client and tables in memory or start-up.
  const { openPgDb } = await import('./pg/client')
  return openPgDb(url)
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
  const local = url.startsWith('file:')
  const opened = createClient(local ? { url, concurrency: 1, timeout: BUSY_TIMEOUT_MS } : { url })
  for (const pragma of local ? EMBEDDED_PRAGMAS : ['PRAGMA foreign_keys = ON']) await opened.execute(pragma)
  // Every write through this client is counted, so the hot connection's caches see them at once.
  const { client, writes } = trackWrites(opened)
  // Opened after the pragmas above: the second connection finds the file already in WAL mode.
  const hot = openHotSql(url, client, writes)
  return {
    dialect: 'sqlite',
    // A libSQL server could take several instances, but pdfshare's rules for several instances (shared limits,
    // row locks) are written for PostgreSQL: on libSQL one instance owns the database.
    shared: false,
    tables: sqliteTables,
    rows: hotRowsOf(sqliteTables),
    orm: drizzle(client, { schema: sqliteTables }),
    portable: sqlitePortable,
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
