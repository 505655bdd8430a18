import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { migrate } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations'

const root = mkdtempSync(join(tmpdir(), 'pdfshare-admins-migration-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const BEFORE_SCOPES = embeddedMigrations.findIndex((migration) => migration.tag.startsWith('0008_'))

test('an install made before admins and scopes: its first user becomes the admin, every token keeps every scope', async () => {
  expect(BEFORE_SCOPES).toBeGreaterThan(0)
  const client = createClient({ url: `file:${join(root, 'pdfshare.db')}` })
  try {
    await migrate(client, embeddedMigrations.slice(0, BEFORE_SCOPES))
    // Two users created in the same millisecond: the id decides, as `user list` orders them.
    for (const [id, name, createdAt] of [
      ['u3', 'late', 9],
      ['u2', 'tied-b', 3],
      ['u1', 'tied-a', 3],
    ] as const) {
      await client.execute({ sql: 'INSERT INTO users (id, name, created_at) VALUES (?, ?, ?)', args: [id, name, createdAt] })
    }
    await client.execute("INSERT INTO tokens (id, user_id, label, created_at) VALUES ('t1', 'u3', 'old script', 1)")
    expect(await migrate(client)).toBeGreaterThan(0)
    const users = await client.execute('SELECT name, is_admin FROM users ORDER BY name')
    expect(users.rows.map((row) => [row[0], Number(row[1])])).toEqual([
      ['late', 0],
      ['tied-a', 1],
      ['tied-b', 0],
    ])
    expect((await client.execute("SELECT scopes FROM tokens WHERE id = 't1'")).rows[0]![0]).toBeNull()
  } finally {
    client.close()
  }
})
