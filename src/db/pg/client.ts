import { AsyncLocalStorage } from 'node:async_hooks'
import { SQL } from 'bun'
import { type SQL as DrizzleSql, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/bun-sql'
import { PgDialect } from 'drizzle-orm/pg-core'
import { errorCodes } from '../../lib/error-codes'
import { type Database, hotRowsOf, type Portable } from '../database'
import { groupCommit, runStepsAsync } from '../group-commit'
import type { HotSql, SqlArg } from '../hot-sql'
import { migratePg } from './migrate'
import { pgTables } from './schema'
import { assertSqliteShapedOrm } from './sqlite-shaped-orm'

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

const pgPortable: Portable = {
  caseless: (text) => sql`lower(${text}) COLLATE "C"`,
  likeCaseless: (text, pattern) => sql`${text} ILIKE ${pattern} ESCAPE '\\'`,
  randomHex: `replace(gen_random_uuid()::text, '-', '')`,
  lockLink: (linkId) => [{ sql: 'SELECT 1 FROM links WHERE id = ? FOR UPDATE', args: [linkId] }],
}

/**
 * Opens the metadata database on PostgreSQL with Bun's SQL client, shaped like the embedded one, so the
 * services run unchanged on either:
 *
 * - `orm` is drizzle on the PostgreSQL tables (`tables`, built from the same definitions as the SQLite ones),
 *   typed as drizzle on the SQLite ones. SQLite runs one writer at a time; PostgreSQL does not, so every
 *   statement outside a batch, and every `db.batch([...])`, runs
 *   SERIALIZABLE and is retried whole on a serialization failure or deadlock. The read-modify-writes the
 *   services express as one guarded statement or one batch (quota, token cap, version swap…) therefore keep
 *   their meaning with several instances writing at once. `db.run` / `db.all` (SQLite-only in drizzle) are
 *   added, running a raw statement and returning `{ rowsAffected }` / the rows.
 * - `hot` runs the per-request statements (`?` placeholders become `$n`). Its group commits run READ
 *   COMMITTED: each of their statements is a single guarded UPDATE or INSERT … ON CONFLICT, which
 *   PostgreSQL re-checks against the row it waited for, so concurrent views on one link queue on its row
 *   instead of failing as they would under SERIALIZABLE; a deadlock between two instances' groups is retried.
 */
export function openPgDb(url: string): Database {
  const pool = new SQL(url, { max: POOL_SIZE, connection: { default_transaction_isolation: 'serializable' } })
  // The transaction a batch runs in: drizzle's queries are built on `orm` but executed inside it.
  const inBatch = new AsyncLocalStorage<SQL>()
  const unsafe = (query: string, params?: unknown[]) => {
    const tx = inBatch.getStore()
    if (tx) return tx.unsafe(query, params)
    // Alone, a statement is its own transaction: safe to run again if it was undone.
    return {
      // biome-ignore lint/suspicious/noThenProperty: drizzle awaits what `unsafe` returns
      then: <A, B>(resolve: (rows: unknown) => A, reject: (error: unknown) => B) =>
        retried(() => pool.unsafe(query, params)).then(resolve, reject),
      values: () => retried(() => pool.unsafe(query, params).values()),
    }
  }
  // drizzle's client: the pool, with its statements sent through `unsafe` above.
  const client = new Proxy(pool, { get: (target, name) => (name === 'unsafe' ? unsafe : Reflect.get(target, name)) })
  const drizzleDb = drizzle({ client, schema: pgTables })
  const pgDialect = new PgDialect()
  const rendered = (query: DrizzleSql) => pgDialect.sqlToQuery(query)
  const extras = {
    batch: (queries: readonly PromiseLike<unknown>[]) =>
      retried(() =>
        pool.begin('isolation level serializable', (tx) =>
          inBatch.run(tx, async () => {
            const results: unknown[] = []
            for (const query of queries) results.push(await query)
            return results
          }),
        ),
      ),
    run: (query: DrizzleSql) =>
      lazily(async () => {
        const { sql: text, params } = rendered(query)
        return { rowsAffected: Number((await unsafe(text, params)).count) }
      }),
    all: (query: DrizzleSql) => lazily(async () => [...(await drizzleDb.execute(query))]),
  }
  // Typed as drizzle on SQLite, which every query is written against (sqlite-shaped-orm.ts).
  const orm = Object.assign(drizzleDb, extras)
  assertSqliteShapedOrm(orm)
  // The hot statements on connections of their own whose default is READ COMMITTED: a single statement is then
  // one round trip, with no BEGIN and COMMIT around it (measured: the shared rate limit's upsert took three).
  const hotPool = new SQL(url, { max: POOL_SIZE, connection: { default_transaction_isolation: 'read committed' } })
  const toPg = placeholderConverter()
  return {
    dialect: 'postgres',
    shared: true,
    tables: pgTables,
    orm,
    hot: pgHotSql(hotPool, toPg),
    rows: hotRowsOf(pgTables),
    portable: pgPortable,
    migrate: () => migratePg(pool),
    exclusive: (work) =>
      pool.begin(async (tx) => {
        await tx.unsafe('LOCK TABLE meta IN EXCLUSIVE MODE')
        return work(async (text, args = []) => [...(await tx.unsafe(toPg(text), args).values())] as unknown[][])
      }),
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

function pgHotSql(pool: SQL, toPg: (sql: string) => string): HotSql {
  const read = async (text: string, args: SqlArg[]) => {
    const rows = await retried(() => pool.unsafe(toPg(text), args).values())
    return rows[0] as unknown[] | undefined
  }
  return {
    get: read,
    write: read,
    // A deadlock or serialization failure undoes the whole transaction: it is run again, whole.
    runGroups: (groups, finalize) =>
      retried(() =>
        pool.begin((tx) =>
          runStepsAsync(groupCommit(groups, finalize, isRetryable), async (step) => {
            if ('savepoint' in step) {
              await tx.unsafe(step.savepoint)
              return 0
            }
            return Number((await tx.unsafe(toPg(step.statement.sql), step.statement.args)).count)
          }),
        ),
      ),
    // No signal of other instances' commits: nothing is cached (versioned-cache.ts).
    dataVersion: async () => undefined,
    ownCommits: () => 0,
    close: () => {},
  }
}

/**
 * `?` → `$1, $2, …` outside quoted text: the hot statements are written once, in SQLite's form. Each opened
 * database keeps its own conversions (a few dozen texts: the hot statements and the exclusive ones).
 */
function placeholderConverter(): (sql: string) => string {
  const converted = new Map<string, string>()
  return (sql) => {
    let text = converted.get(sql)
    if (text === undefined) {
      let n = 0
      text = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (token) => (token === '?' ? `$${++n}` : token))
      converted.set(sql, text)
    }
    return text
  }
}
