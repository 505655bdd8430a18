import { describe, expect, test } from 'bun:test'
import { LibsqlError, type Client } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import type { HotSql } from '../../src/db/hot-sql'
import type { AppContext } from '../../src/core/context'
import * as schema from '../../src/db/schema'
import type { BlobStore } from '../../src/storage/blob-store'
import type { TempFiles } from '../../src/storage/temp-files'
import { bearer } from '../support/bearer'
import { BASE, form, json, memoryLogger, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { uploadPdf } from '../support/uploads'

// Fault injection at the outside boundaries (filesystem, database): every fault gives a clean error
// response and leaves what was there before exactly as it was.
const server = await startTestApp()
const alice = await server.user('alice')
const original = makePdf({ text: () => 'original' })
const replacement = makePdf({ text: () => 'replacement' })

const osError = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code })
const ENOSPC = () => osError('ENOSPC', 'no space left on device, write')
const EIO = () => osError('EIO', 'i/o error')

type Faults = { blobs?: Partial<BlobStore>; tempFiles?: TempFiles; db?: { match: RegExp; error: () => Error } }

/** The same data dir and database, with one boundary made to fail. */
function faultyApp(faults: Faults) {
  const log = memoryLogger()
  const ctx: AppContext = { ...server.ctx, log, blobs: { ...server.ctx.blobs, ...faults.blobs } as BlobStore }
  if (faults.tempFiles) ctx.tempFiles = faults.tempFiles
  if (faults.db) {
    ctx.db = {
      ...server.ctx.db,
      orm: drizzle(failingClient((server.ctx.db.orm as unknown as { $client: Client }).$client, faults.db), { schema }),
      hot: failingHotSql(server.ctx.db.hot, faults.db),
    }
  }
  const app = createApp(ctx)
  const call = (method: string, path: string, body?: BodyInit, headers: Record<string, string> = {}) =>
    app.handle(new Request(`${BASE}${path}`, { method, headers: { ...bearer(alice.token), ...headers }, body: body ?? null }))
  return { call, log }
}

/** The hot-path connection with the same fault: its lookups and view groups fail when their SQL matches. */
function failingHotSql(sql: HotSql, fault: { match: RegExp; error: () => Error }): HotSql {
  return {
    ...sql,
    get: async (text, args) => {
      if (fault.match.test(text)) throw fault.error()
      return sql.get(text, args)
    },
    runGroups: async (groups) => {
      if (groups.some((group) => group.some((statement) => fault.match.test(statement.sql)))) throw fault.error()
      return sql.runGroups(groups)
    },
  }
}

/** A libSQL client whose statements matching `match` fail with `error` (in execute and in batches). */
function failingClient(client: Client, fault: { match: RegExp; error: () => Error }): Client {
  const sqlOf = (statement: unknown) => (typeof statement === 'string' ? statement : String((statement as { sql?: string }).sql ?? ''))
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'execute') {
        return async (statement: unknown, args?: unknown) => {
          if (fault.match.test(sqlOf(statement))) throw fault.error()
          return (target.execute as (s: unknown, a?: unknown) => Promise<unknown>)(statement, args)
        }
      }
      if (property === 'batch') {
        return async (statements: unknown[], mode?: unknown) => {
          if (statements.some((statement) => fault.match.test(sqlOf(statement)))) throw fault.error()
          return (target.batch as (s: unknown[], m?: unknown) => Promise<unknown>)(statements, mode)
        }
      }
      const value = Reflect.get(target, property, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** Everything that must not change when a request fails. */
async function snapshot() {
  const list = (await json(await server.call('GET', '/api/files?limit=100', { token: alice.token }))).data
  const contents = await Promise.all(
    list.map(async (file: { id: string }) =>
      new Bun.CryptoHasher('sha256')
        .update(await (await server.call('GET', `/api/files/${file.id}/content`, { token: alice.token })).arrayBuffer())
        .digest('hex'),
    ),
  )
  return { list, contents, blobs: (await Array.fromAsync(server.ctx.blobs.keys())).sort(), tmp: readdirSync(join(server.dataDir, 'tmp')) }
}

const existing = await uploadPdf(server, alice, original, { title: 'Keep me' })

async function expectIntact(before: Awaited<ReturnType<typeof snapshot>>) {
  const after = await snapshot()
  expect(after.list).toEqual(before.list)
  expect(after.contents).toEqual(before.contents)
  expect(after.blobs).toEqual(before.blobs)
  expect(after.tmp).toEqual([])
}

function failingTempFiles(failure: { onWriteAfter?: number; onSync?: boolean; error: () => Error }): TempFiles {
  return {
    async create(name) {
      const real = await server.ctx.tempFiles.create(name)
      let written = 0
      return {
        ...real,
        async write(chunk) {
          if (failure.onWriteAfter !== undefined && written + chunk.length > failure.onWriteAfter) throw failure.error()
          written += chunk.length
          await real.write(chunk)
        },
        async sync() {
          if (failure.onSync) throw failure.error()
          await real.sync()
        },
      }
    },
  }
}

describe('storage faults', () => {
  const cases: [string, Faults, number, string][] = [
    [
      'the disk fills while the upload is written (ENOSPC)',
      { tempFiles: failingTempFiles({ onWriteAfter: 100, error: ENOSPC }) },
      507,
      'insufficient_storage',
    ],
    ['fsync of the upload fails (EIO)', { tempFiles: failingTempFiles({ onSync: true, error: EIO }) }, 500, 'internal'],
    [
      'the temp file cannot be created (ENOSPC)',
      {
        tempFiles: {
          create: async () => {
            throw ENOSPC()
          },
        },
      },
      507,
      'insufficient_storage',
    ],
    [
      'moving the blob into place fails (EIO on rename)',
      {
        blobs: {
          put: async () => {
            throw EIO()
          },
        },
      },
      500,
      'internal',
    ],
    [
      'moving the blob into place fails (ENOSPC on mkdir)',
      {
        blobs: {
          put: async () => {
            throw ENOSPC()
          },
        },
      },
      507,
      'insufficient_storage',
    ],
  ]
  for (const [name, faults, status, code] of cases) {
    test(`upload: ${name} → ${status} ${code}, nothing stored`, async () => {
      const before = await snapshot()
      const { call } = faultyApp(faults)
      const response = await call('POST', '/api/files/upload', form({ bytes: makePdf({ paddingBytes: 200_000 }) }))
      expect(response.status).toBe(status)
      expect((await json(response)).code).toBe(code)
      await expectIntact(before)
    })
    test(`replacement: ${name} → ${status}, the file keeps its old bytes and metadata`, async () => {
      const before = await snapshot()
      const { call } = faultyApp(faults)
      const response = await call(
        'PUT',
        `/api/files/${existing.id}`,
        form({ bytes: makePdf({ paddingBytes: 200_000 }) }, { title: 'Changed' }),
      )
      expect(response.status).toBe(status)
      await expectIntact(before)
    })
  }

  test('reading a blob fails (EIO) → 500 with the envelope, no path in it', async () => {
    const { call, log } = faultyApp({
      blobs: {
        body: () => {
          throw EIO()
        },
      },
    })
    const response = await call('GET', `/api/files/${existing.id}/content`)
    expect(response.status).toBe(500)
    expect(await json(response)).toEqual({ success: false, error: 'Internal server error', code: 'internal' })
    expect(log.errors.length).toBe(1)
  })

  test('removing the old blob after a committed delete fails → the delete still succeeds; the next start sweeps the blob', async () => {
    const doomed = await uploadPdf(server, alice, makePdf({ text: () => 'doomed' }))
    const { call, log } = faultyApp({
      blobs: {
        delete: async () => {
          throw EIO()
        },
      },
    })
    const response = await call('DELETE', `/api/files/${doomed.id}`)
    expect(response.status).toBe(200)
    expect((await server.call('GET', `/api/files/${doomed.id}`, { token: alice.token })).status).toBe(404)
    expect(log.lines.some((line) => line.includes('could not remove unreferenced blob'))).toBe(true)
    const { sweepUnreferencedBlobs } = await import('../../src/maintenance/sweep')
    expect(await sweepUnreferencedBlobs(server.ctx)).toBe(1)
  })
})

describe('database faults', () => {
  const busy = () => new LibsqlError('SQLITE_BUSY: database is locked', 'SQLITE_BUSY')
  const ioError = () => new LibsqlError('SQLITE_IOERR: disk I/O error', 'SQLITE_IOERR')
  const full = () => new LibsqlError('SQLITE_FULL: database or disk is full', 'SQLITE_FULL')

  test('the commit of an upload fails → 500, and its blob is removed again', async () => {
    const before = await snapshot()
    const { call } = faultyApp({ db: { match: /INSERT INTO "files"/, error: ioError } })
    const response = await call('POST', '/api/files/upload', form({ bytes: makePdf() }))
    expect(response.status).toBe(500)
    await expectIntact(before)
  })

  test('the database is full → 507', async () => {
    const before = await snapshot()
    const { call } = faultyApp({ db: { match: /INSERT INTO "files"/, error: full } })
    expect((await call('POST', '/api/files/upload', form({ bytes: makePdf() }))).status).toBe(507)
    await expectIntact(before)
  })

  test('the switch of a replacement fails → 500, the old bytes and metadata stay, the new blob is removed', async () => {
    const before = await snapshot()
    const { call } = faultyApp({ db: { match: /^update "files"/i, error: ioError } })
    const response = await call('PUT', `/api/files/${existing.id}`, form({ bytes: replacement }, { title: 'Changed' }))
    expect(response.status).toBe(500)
    await expectIntact(before)
  })

  test('a metadata update fails → 500 and nothing changes', async () => {
    const before = await snapshot()
    const { call } = faultyApp({ db: { match: /^update "files"/i, error: ioError } })
    const response = await call('PUT', `/api/files/${existing.id}`, JSON.stringify({ title: 'Changed' }), {
      'content-type': 'application/json',
    })
    expect(response.status).toBe(500)
    await expectIntact(before)
  })

  test('the database stays busy (another process holds the lock) → 503 with Retry-After', async () => {
    const { call } = faultyApp({ db: { match: /from "files"/i, error: busy } })
    const response = await call('GET', `/api/files/${existing.id}`)
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('1')
    expect((await json(response)).code).toBe('server_busy')
  })

  test('a failing delete → 500, the file is still there', async () => {
    const before = await snapshot()
    const { call } = faultyApp({ db: { match: /^delete from "files"/i, error: ioError } })
    expect((await call('DELETE', `/api/files/${existing.id}`)).status).toBe(500)
    await expectIntact(before)
  })

  test('after all of it the store verifies clean', async () => {
    const { verifyStore } = await import('../../src/maintenance/verify')
    const report = await verifyStore(server.ctx, { repair: false })
    expect(report.problems).toEqual([])
    expect(report.orphans).toEqual([])
  })
})
