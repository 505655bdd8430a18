import { createHash } from 'node:crypto'
import type { Client } from '@libsql/client'
import { embeddedMigrations } from './migrations'

/**
 * Applies the migrations embedded in the build, with the same bookkeeping table and hashes as drizzle's
 * own libSQL migrator (`__drizzle_migrations`), so `drizzle-kit migrate` and this agree on what ran.
 * Drizzle's migrator reads a folder at run time; the single binary has no folder, hence this short copy
 * of its logic over the embedded list. All pending migrations run in one transaction.
 */
export async function migrate(client: Client, migrations = embeddedMigrations): Promise<number> {
  try {
    return await applyPending(client, migrations)
  } catch (error) {
    // Two processes starting on a fresh data dir at once (server and CLI) may race; the loser finds the
    // work already done. Anything else is a real failure.
    if ((await pendingMigrations(client, migrations)).length === 0) return 0
    throw error
  }
}

async function pendingMigrations(client: Client, migrations: typeof embeddedMigrations) {
  await client.execute('CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)')
  const last = await client.execute('SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1')
  const lastApplied = last.rows[0] ? Number(last.rows[0][0]) : -Infinity
  return migrations.filter((migration) => migration.when > lastApplied)
}

async function applyPending(client: Client, migrations: typeof embeddedMigrations): Promise<number> {
  const pending = await pendingMigrations(client, migrations)
  if (pending.length === 0) return 0

  const statements = pending.flatMap((migration) => [
    ...migration.sql
      .split('--> statement-breakpoint')
      .map((sql) => sql.trim())
      .filter((sql) => sql.length > 0)
      .map((sql) => ({ sql, args: [] })),
    {
      sql: 'INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)',
      args: [createHash('sha256').update(migration.sql).digest('hex'), migration.when],
    },
  ])
  await client.migrate(statements)
  return pending.length
}
