import { createClient, type Client } from '@libsql/client'
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql'
import { openHotSql, type HotSql } from './hot-sql'
import { trackWrites } from './write-tracking'
import { BUSY_TIMEOUT_MS, EMBEDDED_PRAGMAS } from './pragmas'
import * as schema from './schema'

export type Db = LibSQLDatabase<typeof schema>
export type Database = { db: Db; client: Client; hot: HotSql; close: () => void }

/**
 * Opens the metadata database. No singleton: the caller owns it and closes it.
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
export async function openDb(url: string): Promise<Database> {
  const local = url.startsWith('file:')
  const opened = createClient(local ? { url, concurrency: 1, timeout: BUSY_TIMEOUT_MS } : { url })
  for (const pragma of local ? EMBEDDED_PRAGMAS : ['PRAGMA foreign_keys = ON']) await opened.execute(pragma)
  // Every write through this client is counted, so the hot connection's caches see them at once.
  const { client, writes } = trackWrites(opened)
  // Opened after the pragmas above: the second connection finds the file already in WAL mode.
  const hot = openHotSql(url, client, writes)
  return {
    db: drizzle(client, { schema }),
    client,
    hot,
    close: () => {
      hot.close()
      client.close()
    },
  }
}
