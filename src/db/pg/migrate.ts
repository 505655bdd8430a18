import type { SQL } from 'bun'
import { createHash } from 'node:crypto'
import { embeddedPgMigrations } from './migrations'

/** Any fixed number will do: it names "pdfshare's migrations" among the advisory locks of the database. */
const MIGRATION_LOCK = 4_815_162_342

/**
 * Applies the PostgreSQL migrations embedded in the build on Bun's SQL client (the client drizzle-orm/bun-sql
 * wraps), with drizzle's own bookkeeping (`drizzle.__drizzle_migrations`, the SHA-256 of each file, its journal
 * time), so `drizzle-kit migrate` and this agree on what ran. All pending migrations run in one transaction:
 * PostgreSQL's DDL is transactional, so a failure leaves the database as it was.
 *
 * Several instances may start at once against one database. Unlike the SQLite runner, which lets the loser of
 * the race find the work done, this one takes a transaction-scoped advisory lock before it reads what ran: the
 * second runner waits for the first to commit, then finds nothing pending. Returns how many migrations it applied.
 */
export async function migratePg(client: SQL, migrations = embeddedPgMigrations): Promise<number> {
  // READ COMMITTED whatever the client's default (the server's pool makes every transaction SERIALIZABLE): a
  // serializable snapshot is taken at the lock's SELECT, before the other runner commits, and would not see the
  // migrations it applied (each instance but the first then failed with `relation … already exists`).
  return await client.begin('isolation level read committed', async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
    // Created under the lock: two concurrent CREATE … IF NOT EXISTS can still collide on the catalog.
    await tx`CREATE SCHEMA IF NOT EXISTS drizzle`
    await tx`CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`
    const [last] = await tx`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`
    const lastApplied = last ? Number(last.created_at) : -Infinity
    const pending = migrations.filter((migration) => migration.when > lastApplied)
    for (const migration of pending) {
      for (const statement of migration.sql.split('--> statement-breakpoint')) {
        if (statement.trim().length > 0) await tx.unsafe(statement)
      }
      const hash = createHash('sha256').update(migration.sql).digest('hex')
      await tx`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${hash}, ${migration.when})`
    }
    return pending.length
  })
}
