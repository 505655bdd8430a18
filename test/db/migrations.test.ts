import { expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqliteDb } from '../../src/db/client'
import { migrate } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations'
import { MIGRATIONS_DIR, readJournal, renderMigrationIndex } from '../../scripts/embed-migrations'

test('the embedded migration index matches the drizzle-kit journal (run `bun run db:generate` if not)', () => {
  expect(readFileSync(join(MIGRATIONS_DIR, 'index.ts'), 'utf8')).toBe(renderMigrationIndex(readJournal()))
  expect(embeddedMigrations.map((m) => m.tag)).toEqual(readJournal().entries.map((e) => e.tag))
})

test('migrations apply once, are recorded like drizzle records them, and re-running is a no-op', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-mig-'))
  try {
    const db = await openSqliteDb(`file:${dir}/t.db`)
    expect(await migrate(db.client)).toBe(embeddedMigrations.length)
    expect(await migrate(db.client)).toBe(0)
    const tables = (await db.client.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).rows.map((r) => r.name)
    expect(tables).toEqual(expect.arrayContaining(['__drizzle_migrations', 'files', 'tokens', 'users']))
    const recorded = await db.client.execute('SELECT hash, created_at FROM "__drizzle_migrations"')
    expect(recorded.rows.length).toBe(embeddedMigrations.length)
    expect((await db.client.execute('PRAGMA journal_mode')).rows[0]![0]).toBe('wal')
    expect(Number((await db.client.execute('PRAGMA synchronous')).rows[0]![0])).toBe(2) // FULL
    expect(Number((await db.client.execute('PRAGMA foreign_keys')).rows[0]![0])).toBe(1)
    db.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
