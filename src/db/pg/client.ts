import { AsyncLocalStorage } from 'node:async_hooks'
import { SQL } from 'bun'
import type { SQL as DrizzleSql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/bun-sql'
import type { LibSQLDatabase } from 'drizzle-orm/libsql'
import { errorCodes } from '../../lib/error-codes'
import type { GroupResult, HotSql, SqlArg, SqlStatement } from '../hot-sql'
import type * as sqliteSchema from '../schema'
import * as schema from './schema'

/**
 * PostgreSQL's answers that mean "nothing happened, run it again": a serialization failure (40001) and a
 * deadlock (40P01). Both undo the whole transaction, so running the same statements again is correct.
 */
const RETRYABLE = new Set(['40001', '40P01'])
const MAX_ATTEMPTS = 12

/**
 * Connections an instance keeps to the server, for drizzle's statements and batches and for the hot ones each;
 * a request holds one only for a statement or a transaction.
 */
const POOL_SIZE = 8

/** Typed as the libSQL database (client.ts `Db`): the services are written once, against that. */
type Db = LibSQLDatabase<typeof sqliteSchema>

export type PgDatabase = { db: Db; hot: HotSql; pool: SQL; close: () => void }

/**
 * Opens the metadata database on PostgreSQL with Bun's SQL client, shaped like the embedded one, so the
 * services run unchanged on either:
 *
 * - `db` is drizzle on the PostgreSQL twin of the tables (tables.ts binds them). SQLite runs one writer at a
 *   time; PostgreSQL does not, so every statement outside a batch, and every `db.batch([...])`, runs
 *   SERIALIZABLE and is retried whole on a serialization failure or deadlock. The read-modify-writes the
 *   services express as one guarded statement or one batch (quota, token cap, version swap…) therefore keep
 *   their meaning with several instances writing at once. `db.run` / `db.all` (SQLite-only in drizzle) are
 *   added, running a raw statement and returning `{ rowsAffected }` / the rows.
 * - `hot` runs the per-request statements (`?` placeholders become `$n`). Its group commits run READ
 *   COMMITTED: each of their statements is a single guarded UPDATE or INSERT … ON CONFLICT, which
 *   PostgreSQL re-checks against the row it waited for, so concurrent views on one link queue on its row
 *   instead of failing as they would under SERIALIZABLE; a deadlock between two instances' groups is retried.
 */
export function openPgDb(url: string): PgDatabase {
  const pool = new SQL(url, { max: POOL_SIZE, connection: { default_transaction_isolation: 'serializable' } })
  // The transaction a batch runs in: drizzle's queries are built on `db` but executed inside it.
  const inBatch = new AsyncLocalStorage<SQL>()
  const client = {
    unsafe(query: string, params?: unknown[]) {
      const tx = inBatch.getStore()
      if (tx) return tx.unsafe(query, params)
      // Alone, a statement is its own transaction: safe to run again if it was undone.
      return {
        // biome-ignore lint/suspicious/noThenProperty: drizzle awaits what `unsafe` returns
        then: <A, B>(resolve: (rows: unknown) => A, reject: (error: unknown) => B) =>
          retried(() => pool.unsafe(query, params)).then(resolve, reject),
        values: () => retried(() => pool.unsafe(query, params).values()),
      }
    },
    begin: (...args: Parameters<SQL['begin']>) => pool.begin(...args),
  }
  const drizzleDb = drizzle({ client: client as unknown as SQL, schema })
  const extras = {
    batch: (queries: readonly PromiseLike<unknown>[]) =>
      retried(() =>
        pool.begin('isolation level serializable', (tx) =>
          inBatch.run(tx as unknown as SQL, async () => {
            const results: unknown[] = []
            for (const query of queries) results.push(await query)
            return results
          }),
        ),
      ),
    run: (query: DrizzleSql) =>
      lazily(async () => ({ rowsAffected: ((await drizzleDb.execute(query)) as unknown as { count: number }).count })),
    all: (query: DrizzleSql) => lazily(async () => [...(await drizzleDb.execute(query))]),
  }
  const db = Object.assign(drizzleDb, extras) as unknown as Db
  // The hot statements on connections of their own whose default is READ COMMITTED: a single statement is then
  // one round trip, with no BEGIN and COMMIT around it (measured: the shared rate limit's upsert took three).
  const hotPool = new SQL(url, { max: POOL_SIZE, connection: { default_transaction_isolation: 'read committed' } })
  return {
    db,
    hot: pgHotSql(hotPool),
    pool,
    close: () => {
      void pool.close()
      void hotPool.close()
    },
  }
}

/** A promise-like that runs `work` each time it is awaited (as drizzle's queries do), so a batch can retry it. */
function lazily<T>(work: () => Promise<T>): PromiseLike<T> {
  return {
    // biome-ignore lint/suspicious/noThenProperty: a lazy query, awaited like drizzle's own
    then: (resolve, reject) => work().then(resolve, reject),
  }
}

async function retried<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error
      // A short random pause: two instances that collided should not collide again in lockstep.
      await Bun.sleep(Math.random() * 2 ** Math.min(attempt, 6))
    }
  }
}

/** Looks along the `cause` chain: inside a batch the driver's error arrives wrapped in drizzle's DrizzleQueryError. */
export const isRetryable = (error: unknown) => errorCodes(error).some((code) => RETRYABLE.has(code.replace(/^PG_/, '')))

function pgHotSql(pool: SQL): HotSql {
  const run = async (tx: SQL, statement: SqlStatement) => (await tx.unsafe(toPgPlaceholders(statement.sql), statement.args)).count as number
  const runGroup = async (tx: SQL, group: SqlStatement[]) => {
    const changes: number[] = []
    for (const statement of group) {
      // The SQLite connection checks the same in the statement's own process: only after a change of one row.
      if (statement.onlyIfPreviousChanged && changes.at(-1) !== 1) changes.push(0)
      else changes.push(await run(tx, statement))
    }
    return changes
  }
  const guarded = async (tx: SQL, group: SqlStatement[]): Promise<GroupResult> => {
    await tx.unsafe('SAVEPOINT hot_group')
    try {
      const changes = await runGroup(tx, group)
      await tx.unsafe('RELEASE SAVEPOINT hot_group')
      return changes
    } catch (error) {
      if (isRetryable(error)) throw error
      await tx.unsafe('ROLLBACK TO SAVEPOINT hot_group')
      await tx.unsafe('RELEASE SAVEPOINT hot_group')
      return error instanceof Error ? error : new Error(String(error))
    }
  }
  return {
    get: async (sql: string, args: SqlArg[]) => {
      const rows = await retried(() => pool.unsafe(toPgPlaceholders(sql), args).values())
      return rows[0] as unknown[] | undefined
    },
    write: async (sql: string, args: SqlArg[]) => {
      const rows = await retried(() => pool.unsafe(toPgPlaceholders(sql), args).values())
      return rows[0] as unknown[] | undefined
    },
    runGroups: (groups, finalize) =>
      retried(() =>
        pool.begin(async (raw) => {
          const tx = raw as unknown as SQL
          // Groups almost never fail, so they first run under one savepoint (two round trips a group fewer); only
          // if one fails is that undone and every group run again under its own, as on SQLite.
          let results: GroupResult[]
          await tx.unsafe('SAVEPOINT hot_all')
          try {
            results = []
            for (const group of groups) results.push(await runGroup(tx, group))
            await tx.unsafe('RELEASE SAVEPOINT hot_all')
          } catch (error) {
            // A deadlock or serialization failure undoes the whole transaction: run it all again.
            if (isRetryable(error)) throw error
            await tx.unsafe('ROLLBACK TO SAVEPOINT hot_all')
            await tx.unsafe('RELEASE SAVEPOINT hot_all')
            results = []
            for (const group of groups) results.push(await guarded(tx, group))
          }
          for (const statement of finalize?.(results) ?? []) await run(tx, statement)
          return results
        }),
      ),
    // No signal of other instances' commits: nothing is cached (versioned-cache.ts).
    dataVersion: async () => undefined,
    ownCommits: () => 0,
    close: () => {},
  }
}

const converted = new Map<string, string>()

/** `?` → `$1, $2, …` outside quoted text: the hot statements are written once, in SQLite's form. */
export function toPgPlaceholders(sql: string): string {
  let text = converted.get(sql)
  if (text === undefined) {
    let n = 0
    text = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (token) => (token === '?' ? `$${++n}` : token))
    converted.set(sql, text)
  }
  return text
}
