import { createClient, type Client } from '@libsql/client'
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql'
import * as schema from './schema'

export type Db = LibSQLDatabase<typeof schema>
export type Database = { db: Db; client: Client; close: () => void }

/** Milliseconds a connection waits for another process's write lock (e.g. a CLI command) before failing. */
const BUSY_TIMEOUT_MS = 5000

/**
 * Opens the metadata database. No singleton: the caller owns it and closes it.
 *
 * For the embedded file the client gets exactly one connection. Every @libsql/client call on a local file is
 * a synchronous native call, so one connection serialises writes inside this process without locks that
 * span an await (the platform notes measured 19 of 20 concurrent interactive transactions failing with
 * SQLITE_BUSY on the default pool of 20). It also makes the PRAGMAs below stick: a PRAGMA sent through
 * `execute()` reaches only the connection that ran it. Other processes (the CLI while the server runs) are
 * handled by WAL and the busy timeout. Services use single statements or `batch()`, never interactive
 * transactions.
 */
export async function openDb(url: string): Promise<Database> {
  const local = url.startsWith('file:')
  const client = createClient(local ? { url, concurrency: 1, timeout: BUSY_TIMEOUT_MS } : { url })
  if (local) {
    await client.execute('PRAGMA journal_mode = WAL')
    // FULL: a commit is on disk when it returns, matching the fsync'd blobs (kill -9 and power loss alike).
    await client.execute('PRAGMA synchronous = FULL')
    await client.execute(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  }
  await client.execute('PRAGMA foreign_keys = ON')
  return { db: drizzle(client, { schema }), client, close: () => client.close() }
}
