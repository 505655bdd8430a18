import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { migrate } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations'

const root = mkdtempSync(join(tmpdir(), 'pdfshare-teams-migration-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const BEFORE_TEAMS = embeddedMigrations.findIndex((migration) => migration.tag.endsWith('_teams'))

test('an install made before teams: every user gets an owners row, every owned row stays, and a removed user still takes their things', async () => {
  expect(BEFORE_TEAMS).toBeGreaterThan(0)
  const client = createClient({ url: `file:${join(root, 'pdfshare.db')}` })
  try {
    await client.execute('PRAGMA foreign_keys = ON')
    await migrate(client, embeddedMigrations.slice(0, BEFORE_TEAMS))
    await client.batch([
      "INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', 1), ('u2', 'bob', 2)",
      `INSERT INTO files (id, owner_id, blob_key, filename, title, description, size, sha256, created_at, updated_at, uploaded_at, version_id)
        VALUES ('f1', 'u1', 'b1', 'a.pdf', 'A', '', 10, 'x', 1, 1, 1, 'v1'), ('f2', 'u2', 'b2', 'b.pdf', 'B', '', 10, 'y', 1, 1, 1, 'v2')`,
      "INSERT INTO links (id, file_id, slug, is_default, label, allow_download, search_engine_visible, disabled, views, created_at, updated_at) VALUES ('l1', 'f1', 's1', 1, '', 1, 0, 0, 5, 1, 1)",
      "INSERT INTO rooms (id, owner_id, name, description, created_at, updated_at) VALUES ('r1', 'u1', 'Deal', '', 1, 1)",
      "INSERT INTO room_items (room_id, file_id, folder, position) VALUES ('r1', 'f1', '', 0)",
      "INSERT INTO webhooks (id, owner_id, url, events, secret, created_at) VALUES ('w1', 'u1', 'https://x.test', '[]', 's', 1)",
      "INSERT INTO tokens (id, user_id, label, created_at) VALUES ('t1', 'u1', 'old', 1)",
    ])
    expect(await migrate(client)).toBeGreaterThan(0)
    const owners = await client.execute('SELECT id, kind FROM owners ORDER BY id')
    expect(owners.rows.map((row) => [row[0], row[1]])).toEqual([
      ['u1', 'user'],
      ['u2', 'user'],
    ])
    expect((await client.execute('PRAGMA foreign_key_check')).rows).toEqual([])
    // Every owned row, and what hangs off the rebuilt tables (links, room items), is there as it was.
    expect((await client.execute("SELECT views FROM links WHERE id = 'l1'")).rows[0]![0]).toBe(5)
    expect((await client.execute("SELECT count(*) FROM room_items WHERE file_id = 'f1'")).rows[0]![0]).toBe(1)
    expect((await client.execute("SELECT team_id FROM tokens WHERE id = 't1'")).rows[0]![0]).toBeNull()
    // Removing alice's owners row (as removing the user does) takes her files, rooms and webhooks, not bob's.
    await client.execute('PRAGMA foreign_keys = ON')
    await client.batch(["DELETE FROM users WHERE id = 'u1'", "DELETE FROM owners WHERE id = 'u1'"])
    const left = await client.execute(
      'SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM rooms), (SELECT count(*) FROM webhooks), (SELECT count(*) FROM links)',
    )
    expect([0, 1, 2, 3].map((i) => Number(left.rows[0]![i]))).toEqual([1, 0, 0, 0])
  } finally {
    client.close()
  }
})

const BEFORE_AUDIT_TEAM = embeddedMigrations.findIndex((migration) => migration.tag.endsWith('_teams_part3'))

test("the entries written before audit_events.team_id get the team their facts name, so they are in the team's log", async () => {
  expect(BEFORE_AUDIT_TEAM).toBeGreaterThan(0)
  const client = createClient({ url: `file:${join(root, 'audit-team.db')}` })
  try {
    await migrate(client, embeddedMigrations.slice(0, BEFORE_AUDIT_TEAM))
    const entry = (seq: number, detail: unknown) =>
      `INSERT INTO audit_events (seq, at, action, actor_name, via, detail) VALUES (${seq}, 1, 'x', 'a', 'api', '${JSON.stringify(detail)}')`
    await client.batch([
      entry(1, { fileId: 'f1', actingTeam: 'team1' }),
      entry(2, { teamId: 'team2', name: 'Sales' }),
      entry(3, { fileId: 'f2' }),
      entry(4, { teamId: 7 }),
    ])
    expect(await migrate(client)).toBeGreaterThan(0)
    const rows = await client.execute('SELECT seq, team_id FROM audit_events ORDER BY seq')
    expect(rows.rows.map((row) => [row[0], row[1]])).toEqual([
      [1, 'team1'],
      [2, 'team2'],
      [3, null],
      [4, null],
    ])
  } finally {
    client.close()
  }
})
