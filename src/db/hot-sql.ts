import type { Client, InValue } from '@libsql/client'
import Database from 'libsql'
import { type GroupResult, groupCommit, runSteps, runStepsAsync, type SqlArg, type SqlStatement, type Step } from './group-commit'
import { BUSY_TIMEOUT_MS, EMBEDDED_PRAGMAS } from './pragmas'

export type { GroupResult, SqlArg, SqlStatement } from './group-commit'

/** A row's values in the order of the SELECT list. */
export type SqlRow = unknown[]

/**
 * The few statements that run on every request (token check, file lookups, view counts), as plain SQL.
 *
 * Why not drizzle and @libsql/client for these: profiling `GET /api/files/:id` showed half the CPU in them:
 * the client prepares every statement again on each call and drizzle builds the SQL text again. On the
 * embedded file this keeps each statement prepared for the life of the process on its own native
 * connection, some forty times cheaper a lookup (BENCHMARKS.md, Design measurements). For a remote database the same SQL goes
 * through the client. Everything else (writes, listings, the CLI) stays on drizzle.
 */
export type HotSql = {
  /** The first row's values in SELECT order, or undefined. */
  get(sql: string, args: SqlArg[]): Promise<SqlRow | undefined>
  /**
   * One statement that writes and returns (`… RETURNING`), alone in its transaction: the first row
   * returned, or undefined. On PostgreSQL it runs READ COMMITTED, so concurrent upserts of one row (a shared
   * counter) queue on it rather than fail.
   */
  write(sql: string, args: SqlArg[]): Promise<SqlRow | undefined>
  /**
   * Runs groups of statements in one write transaction and returns the rows changed by each statement, or
   * the error that undid its group (a savepoint: a failing group is undone alone). `finalize` sees those
   * results and gives the statements that complete the transaction. One commit, one fsync, for many small
   * writes (a group commit).
   */
  runGroups(groups: SqlStatement[][], finalize?: (results: GroupResult[]) => SqlStatement[]): Promise<GroupResult[]>
  /**
   * A number that changes whenever another connection has committed: this process's drizzle connection
   * (counted by write-tracking.ts the moment each write is over) or another process, such as the CLI (seen
   * through SQLite's `data_version`, read at most once per FOREIGN_CHECK_MS). Never for this connection's
   * own writes (view counts). Lets a cache of rows those others write (tokens, users, files) know it is
   * still exact. `undefined` where there is no such signal (a remote database): cache nothing.
   */
  dataVersion(): Promise<number | undefined>
  /** How many times this connection has committed (view counts): the part of a change `dataVersion` cannot see. */
  ownCommits(): number
  close(): void
}

/**
 * How old a reading of `data_version` may be. Reading it on every lookup cost a quarter of a cached range
 * request (BENCHMARKS.md, Design measurements); other processes' commits (a CLI `token revoke`) are then seen within
 * a millisecond, which is sooner than any client can learn that the command has finished.
 */
export const FOREIGN_CHECK_MS = 1

/**
 * Prepared statements on a second connection to the embedded file, or the client itself for a remote URL.
 * `localWrites` counts the writes this process made through `client`.
 */
export function openHotSql(url: string, client: Client, localWrites: () => number = () => 0): HotSql {
  const path = embeddedPathOf(url)
  return path === undefined ? clientHotSql(client) : nativeHotSql(path, localWrites)
}

/** `file:/abs/path.db` → `/abs/path.db`; undefined for remote URLs and file URLs with options. */
function embeddedPathOf(url: string): string | undefined {
  if (!url.startsWith('file:') || url.includes('?')) return undefined
  return url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url.slice('file:'.length)
}

function nativeHotSql(path: string, localWrites: () => number): HotSql {
  // The same native module as @libsql/client's, so both connections share SQLite's per-process lock
  // bookkeeping. Every call below is synchronous, so no transaction here ever spans an await.
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS })
  for (const pragma of EMBEDDED_PRAGMAS) db.exec(pragma)
  const statements = new Map<string, Database.Statement>()
  const prepared = (sql: string) => {
    let statement = statements.get(sql)
    if (!statement) {
      statement = db.prepare(sql)
      // Rows as arrays: ~30 % cheaper than objects (libsql also attaches timing metadata to each object).
      if (statement.reader) statement.raw(true)
      statements.set(sql, statement)
    }
    return statement
  }
  const execute = (step: Step) => {
    if ('savepoint' in step) {
      prepared(step.savepoint).run()
      return 0
    }
    return prepared(step.statement.sql).run(...step.statement.args.map(bindable)).changes
  }
  let commits = 0
  const inOneTransaction = <T>(work: () => T): T => {
    prepared('BEGIN IMMEDIATE').run()
    try {
      const result = work()
      prepared('COMMIT').run()
      commits++
      return result
    } catch (error) {
      if (db.inTransaction) prepared('ROLLBACK').run()
      throw error
    }
  }
  // Our own version number: bumped whenever the local write count or SQLite's data_version moved. After a
  // local write data_version is read at once too, so that write moves the number once, not twice.
  let current = 0
  let seenForeign = -1
  let seenLocal = -1
  let foreignReadAt = -Infinity
  const version = () => {
    const now = performance.now()
    const local = localWrites()
    let foreign = seenForeign
    if (local !== seenLocal || now - foreignReadAt >= FOREIGN_CHECK_MS) {
      foreignReadAt = now
      foreign = Number((prepared('PRAGMA data_version').get() as SqlRow)[0])
    }
    if (local !== seenLocal || foreign !== seenForeign) {
      seenLocal = local
      seenForeign = foreign
      current++
    }
    return current
  }
  return {
    get: async (sql, args) => (prepared(sql).get(...args.map(bindable)) as SqlRow | undefined) ?? undefined,
    write: async (sql, args) => inOneTransaction(() => (prepared(sql).get(...args.map(bindable)) as SqlRow | undefined) ?? undefined),
    dataVersion: async () => version(),
    ownCommits: () => commits,
    runGroups: async (groups, finalize) => inOneTransaction(() => runSteps(groupCommit(groups, finalize), execute)),
    close: () => db.close(),
  }
}

function clientHotSql(client: Client): HotSql {
  return {
    get: async (sql, args) => {
      const result = await client.execute({ sql, args: args as InValue[] })
      const row = result.rows[0]
      return row ? Array.from(row) : undefined
    },
    write: async (sql, args) => {
      const row = (await client.execute({ sql, args: args as InValue[] })).rows[0]
      return row ? Array.from(row) : undefined
    },
    runGroups: async (groups, finalize) => {
      const transaction = await client.transaction('write')
      try {
        const results = await runStepsAsync(groupCommit(groups, finalize), async (step) => {
          if ('savepoint' in step) {
            await transaction.execute(step.savepoint)
            return 0
          }
          return (await transaction.execute(toInStatement(step.statement))).rowsAffected
        })
        await transaction.commit()
        return results
      } finally {
        transaction.close()
      }
    },
    dataVersion: async () => undefined,
    ownCommits: () => 0,
    close: () => {},
  }
}

/** SQLite has no boolean: true and false are stored as 1 and 0, as drizzle stores them. */
const bindable = (arg: SqlArg) => (arg === true ? 1 : arg === false ? 0 : arg)
const toInStatement = (statement: SqlStatement) => ({ sql: statement.sql, args: statement.args as InValue[] })
