import { afterAll, describe, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { eq } from 'drizzle-orm'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqliteDb } from '../../src/db/client'
import { FOREIGN_CHECK_MS, openHotSql, type HotSql } from '../../src/db/hot-sql'
import { migrate } from '../../src/db/migrate'
import { rowReader } from '../../src/db/rows'
import { files, links, owners, users } from '../../src/db/schema'
import { versionedCache } from '../../src/db/versioned-cache'

const dir = mkdtempSync(join(tmpdir(), 'pdfshare-hot-sql-'))
const url = `file:${dir}/t.db`
const database = await openSqliteDb(url)
await migrate(database.client)
afterAll(() => {
  database.close()
  rmSync(dir, { recursive: true, force: true })
})

const db = database.orm
await db.insert(users).values({ id: 'u1', name: 'alice', createdAt: 1, maxBytes: null, maxFiles: 3 })
await db.insert(owners).values({ id: 'u1', kind: 'user' })
const fileOf = (id: string) => ({
  id,
  ownerId: 'u1',
  blobKey: `b-${id}`,
  filename: `${id}.pdf`,
  title: `T ${id} ✓ "quoted"`,
  description: '',
  size: 10,
  sha256: 'ab'.repeat(32),
  views: 0,
  createdAt: 5,
  updatedAt: 6,
  uploadedAt: 5,
  versionId: `v-${id}`,
})
// Each file's default link has the file's id, so a view mark can name either.
const linkOf = (id: string, flags: boolean) => ({
  id,
  fileId: id,
  slug: `slug-${id}`,
  isDefault: true,
  label: '',
  allowDownload: flags,
  searchEngineVisible: !flags,
  expiresAt: flags ? null : 99,
  maxViews: null,
  passwordHash: null,
  disabled: false,
  views: 0,
  createdAt: 5,
  updatedAt: 6,
})
await db.insert(files).values([fileOf('f1'), fileOf('f2')])
await db.insert(links).values([linkOf('f1', true), linkOf('f2', false)])

// The embedded file gets its own prepared-statement connection; any other URL goes through the client.
// Both are tested on the same file: the client path is what a remote libSQL server would use.
const implementations: [string, HotSql][] = [
  ['native prepared statements', database.hot],
  ['through the client (remote databases)', openHotSql('libsql://remote.example', database.client)],
]
const linkRows = rowReader(links)
const BY_ID = `SELECT ${linkRows.columns} FROM ${linkRows.table} WHERE "id" = ?`
const MARK = 'INSERT INTO view_marks (link_id, visitor, seen_at) VALUES (?, ?, ?)'
const INCREMENT = 'UPDATE files SET views = views + 1 WHERE id = ?'
const viewsOf = async (id: string) => (await db.select({ views: files.views }).from(files).where(eq(files.id, id)))[0]?.views

describe.each(implementations)('hot SQL: %s', (_name, sql) => {
  test('a row read through rowReader equals what drizzle selects, booleans and nulls included', async () => {
    for (const id of ['f1', 'f2']) {
      const [expected] = await db.select().from(links).where(eq(links.id, id))
      expect(linkRows.read((await sql.get(BY_ID, [id]))!)).toEqual(expected!)
    }
    const [user] = await db.select().from(users)
    const userRows = rowReader(users)
    expect(userRows.read((await sql.get(`SELECT ${userRows.columns} FROM ${userRows.table}`, []))!)).toEqual(user!)
  })

  test('no row → undefined', async () => {
    expect(await sql.get(BY_ID, ['nope'])).toBeUndefined()
  })

  test('groups commit with their change counts; a failing group is undone alone and reported in its place', async () => {
    const before = { f1: await viewsOf('f1'), f2: await viewsOf('f2') }
    const visitor = `v-${_name}`
    let seenByFinalize: unknown
    const results = await sql.runGroups(
      [
        [
          { sql: MARK, args: ['f1', visitor, 1] },
          { sql: INCREMENT, args: ['f1'] },
        ],
        // A mark for a file that does not exist violates the foreign key: this group must leave no trace.
        [
          { sql: INCREMENT, args: ['f2'] },
          { sql: MARK, args: ['missing-file', visitor, 1] },
        ],
        [{ sql: INCREMENT, args: ['f2'] }],
      ],
      // finalize sees the results and completes the same transaction: +10 per successful group on f1.
      (results) => {
        seenByFinalize = results.map((r) => r instanceof Error)
        return [
          {
            sql: 'UPDATE files SET views = views + ? WHERE id = ?',
            args: [10 * results.filter((r) => !(r instanceof Error)).length, 'f1'],
          },
        ]
      },
    )
    expect(results[0]).toEqual([1, 1])
    expect(results[1]).toBeInstanceOf(Error)
    expect(results[2]).toEqual([1])
    expect(seenByFinalize).toEqual([false, true, false])
    expect(await viewsOf('f1')).toBe(before.f1! + 1 + 20)
    expect(await viewsOf('f2')).toBe(before.f2! + 1)
  })

  test('a failing finalize undoes the whole transaction', async () => {
    const before = await viewsOf('f1')
    const attempt = sql.runGroups([[{ sql: INCREMENT, args: ['f1'] }]], () => [{ sql: MARK, args: ['missing-file', 'x', 1] }])
    await expect(attempt).rejects.toThrow()
    expect(await viewsOf('f1')).toBe(before)
  })
})

describe('data_version and the versioned cache', () => {
  test('changes when another connection commits, not for the hot connection’s own writes', async () => {
    const start = await database.hot.dataVersion()
    await database.hot.runGroups([[{ sql: INCREMENT, args: ['f1'] }]])
    expect(await database.hot.dataVersion()).toBe(start)
    await db.update(files).set({ title: 'changed by drizzle' }).where(eq(files.id, 'f1'))
    const afterOwnProcess = await database.hot.dataVersion()
    expect(afterOwnProcess).not.toBe(start)
    const other = createClient({ url })
    await other.execute("UPDATE files SET title = 'changed elsewhere' WHERE id = 'f1'")
    other.close()
    // Not this process's drizzle connection: seen through SQLite's data_version, read at most every FOREIGN_CHECK_MS.
    await Bun.sleep(FOREIGN_CHECK_MS + 1)
    expect(await database.hot.dataVersion()).not.toBe(afterOwnProcess)
  })

  test('this process’s drizzle writes move it at once, in every form; its reads do not', async () => {
    let last = await database.hot.dataVersion()
    const moved = async () => {
      const now = await database.hot.dataVersion()
      const changed = now !== last
      last = now
      return changed
    }
    await db.select().from(files).where(eq(files.id, 'f1'))
    await database.client.execute({ sql: 'SELECT count(*) FROM files', args: [] })
    expect(await moved()).toBe(false)
    await database.client.execute({ sql: "UPDATE files SET description = 'a' WHERE id = ?", args: ['f1'] })
    expect(await moved()).toBe(true)
    await database.client.batch(
      [
        { sql: 'SELECT 1', args: [] },
        { sql: "UPDATE files SET description = 'b' WHERE id = ?", args: ['f1'] },
      ],
      'write',
    )
    expect(await moved()).toBe(true)
    await Bun.sleep(FOREIGN_CHECK_MS + 1) // data_version is read again: the writes above must not move it twice
    await database.client.batch([{ sql: 'SELECT 1', args: [] }], 'read')
    expect(await moved()).toBe(false)
    const transaction = await database.client.transaction('write')
    await transaction.execute({ sql: "UPDATE files SET description = 'c' WHERE id = ?", args: ['f1'] })
    await transaction.commit()
    expect(await moved()).toBe(true)
    // A failed write counts too: it may have been undone, but a cache refill is cheap.
    await expect(database.client.execute("UPDATE files SET owner_id = 'nobody' WHERE id = 'f1'")).rejects.toThrow()
    expect(await moved()).toBe(true)
  })

  test('the cache serves a row until another connection commits, then reads it again', async () => {
    const cache = versionedCache<string>(database.hot)
    let loads = 0
    const title = () =>
      cache('f2', async () => {
        loads++
        return String((await database.hot.get('SELECT title FROM files WHERE id = ?', ['f2']))![0])
      })
    expect(await title()).toBe('T f2 ✓ "quoted"')
    expect(await title()).toBe('T f2 ✓ "quoted"')
    expect(loads).toBe(1)
    await db.update(files).set({ title: 'new title' }).where(eq(files.id, 'f2'))
    expect(await title()).toBe('new title')
    expect(loads).toBe(2)
  })

  test('with ownCommits, the hot connection’s own commits empty the cache too', async () => {
    const cache = versionedCache<number>(database.hot, { ownCommits: true })
    let loads = 0
    await cache('k', async () => ++loads)
    await cache('k', async () => ++loads)
    expect(loads).toBe(1)
    await database.hot.runGroups([[{ sql: INCREMENT, args: ['f1'] }]])
    await cache('k', async () => ++loads)
    expect(loads).toBe(2)
  })

  test('a remote database gives no version: nothing is cached', async () => {
    const remote = openHotSql('libsql://remote.example', database.client)
    expect(await remote.dataVersion()).toBeUndefined()
    const cache = versionedCache<number>(remote)
    let loads = 0
    for (let i = 0; i < 3; i++) await cache('k', async () => ++loads)
    expect(loads).toBe(3)
  })

  test('unknown keys are not kept, and the cache holds at most its size', async () => {
    const cache = versionedCache<number>(database.hot, { size: 2 })
    let loads = 0
    await cache('missing', async () => {
      loads++
      return undefined
    })
    await cache('missing', async () => {
      loads++
      return undefined
    })
    expect(loads).toBe(2)
    for (const key of ['a', 'b', 'c'])
      await cache(key, async () => {
        loads++
        return 1
      })
    await cache('c', async () => {
      loads++
      return 1
    }) // kept
    await cache('a', async () => {
      loads++
      return 1
    }) // the oldest, forgotten
    expect(loads).toBe(2 + 3 + 1)
  })
})
