import { afterAll, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makePdf } from '../../scripts/support/pdf'
import { freshPostgres } from '../../scripts/support/postgres'
import { run, startServer } from '../../scripts/support/process'
import { bearer } from '../support/bearer'
import { form } from '../support/harness'
import { shareUrlOn } from '../support/share-paths'
import { uploadPdfTo } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'
import sharp from 'sharp'
import { Database } from 'bun:sqlite'
import { LEFT_BEHIND } from '../../src/maintenance/migrate-database'

// Moving an embedded install's metadata to PostgreSQL with `pdfshare database migrate`, as real processes:
// the install before, the copy, and a server on PostgreSQL with the same data dir afterwards.
const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-dbmove-'))
const postgres = await freshPostgres()
afterAll(async () => {
  await postgres.stop()
  rmSync(dataDir, { recursive: true, force: true })
})
const onPostgres = { PDFSHARE_DATABASE_URL: postgres.url }
const started: { stop: () => Promise<number> }[] = []
afterAll(() => Promise.all(started.map((server) => server.stop())))
/** The owner's list, share URLs without their origin (each server here listens on a port of its own). */
const files = async (url: string, token: string) =>
  ((await (await fetch(`${url}/api/files`, { headers: bearer(token) })).json()).data as { id: string; shareUrl: string }[]).map((file) => ({
    ...file,
    shareUrl: new URL(file.shareUrl).pathname,
  }))

test('every row moves, tokens and share links keep working, and new writes continue after the copied keys', async () => {
  await run(['user', 'add', 'alice', '--data', dataDir])
  const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
  const embedded = await startServer(['--data', dataDir])
  started.push(embedded) // stopped after the file even when an expectation fails first
  const first = makePdf({ text: () => 'first' })
  const replaced = makePdf({ text: () => 'replaced' })
  const a = await uploadPdfTo(embedded.url, token, first)
  const b = await uploadPdfTo(embedded.url, token, makePdf({ text: () => 'second' }))
  expect(
    (await fetch(`${embedded.url}/api/files/${a.id}`, { method: 'PUT', headers: bearer(token), body: form({ bytes: replaced }) })).status,
  ).toBe(200)
  expect((await fetch(shareUrlOn(embedded.url, b), { headers: { 'user-agent': FIREFOX } })).status).toBe(200)
  // The branding an admin set (alice is the first user), its logo's bytes included.
  const json = { ...bearer(token), 'content-type': 'application/json' }
  expect(
    (await fetch(`${embedded.url}/api/admin/branding`, { method: 'PATCH', headers: json, body: '{"name":"Acme Legal"}' })).status,
  ).toBe(200)
  const logo = await sharp({ create: { width: 90, height: 30, channels: 3, background: '#0b6e4f' } })
    .png()
    .toBuffer()
  const branded = await fetch(`${embedded.url}/api/admin/branding/logo`, {
    method: 'PUT',
    headers: { ...bearer(token), 'content-type': 'image/png' },
    body: logo,
  })
  const brandingBefore = (await branded.json()).data
  const logoBefore = await (await fetch(`${embedded.url}${brandingBefore.logo.url}`)).arrayBuffer()
  // Rows of the readers' and notifications' tables, and a kept Idempotency-Key (tables the copy once missed).
  const link = await (
    await fetch(`${embedded.url}/api/files/${b.id}/links`, { method: 'POST', headers: json, body: '{"agreement":"Terms."}' })
  ).json()
  const shared = new URL(link.data.url).pathname
  const accepted = await fetch(`${embedded.url}${shared}/agreement`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'user-agent': FIREFOX, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'version=1&accept=yes',
  })
  expect(accepted.status).toBe(303)
  const channel = await fetch(`${embedded.url}/api/notifications/channels`, {
    method: 'POST',
    headers: json,
    body: '{"kind":"ntfy","target":"https://ntfy.example.test/alice"}',
  })
  expect(channel.status).toBe(201)
  const keyed = await fetch(`${embedded.url}/api/files/upload`, {
    method: 'POST',
    headers: { ...bearer(token), 'idempotency-key': 'migrate-test-key-1' },
    body: form({ bytes: makePdf({ text: () => 'keyed' }) }),
  })
  expect(keyed.status).toBe(201)
  const before = await files(embedded.url, token)
  await embedded.stop()
  const embeddedCounts = new Map<string, number>()
  const file = new Database(join(dataDir, 'pdfshare.db'), { readonly: true })
  for (const { name } of file
    // The search index is not copied: the new database reads every PDF's text again (docs/search.md).
    .query(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name NOT LIKE 'search_%'",
    )
    .all() as { name: string }[])
    embeddedCounts.set(name, (file.query(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n)
  file.close()

  // The URL, which holds a password, comes on stdin: not in argv, where `ps` would show it.
  const moved = await run(['database', 'migrate', '--to', '-', '--data', dataDir], { stdin: `${postgres.url}\n` })
  expect(moved.code, moved.stderr).toBe(0)
  expect(moved.stdout).toContain('files: 3 row(s)')
  expect(moved.stdout).toContain('file_versions: 1 row(s)')
  // The day's visitor salt stays behind (the migrated install starts a new one); the signing secret moves.
  const pg = new SQL(postgres.url)
  expect((await pg`SELECT key FROM meta ORDER BY key`).map((row: { key: string }) => row.key)).toEqual(['data_dir_id', 'signing_secret'])
  // Every table of the embedded file moved whole, but those left behind on purpose (and meta's visitor salt).
  for (const table of ['acceptances', 'agreement_texts', 'notification_channels', 'idempotency_keys'])
    expect(embeddedCounts.get(table)).toBeGreaterThan(0)
  for (const [table, rows] of embeddedCounts) {
    if (table in LEFT_BEHIND || table === 'meta') continue
    const [counted] = await pg.unsafe(`SELECT count(*) AS n FROM "${table}"`)
    expect([table, Number(counted.n)]).toEqual([table, rows])
  }
  await pg.close()

  const server = await startServer(['--data', dataDir], { env: onPostgres })
  try {
    // The token issued before (signed with the data dir's secret, now kept in the database) still works.
    expect(await files(server.url, token)).toEqual(before)
    const content = await fetch(`${server.url}/api/files/${a.id}/content`, { headers: bearer(token) })
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(replaced)
    const versions = (await (await fetch(`${server.url}/api/files/${a.id}/versions`, { headers: bearer(token) })).json()).data
    expect(versions).toHaveLength(2) // the current PDF and the one it replaced
    expect((await fetch(shareUrlOn(server.url, b), { headers: { 'user-agent': FIREFOX } })).status).toBe(200)
    const brandingAfter = (await (await fetch(`${server.url}/api/admin/branding`, { headers: bearer(token) })).json()).data
    expect(brandingAfter).toEqual(brandingBefore)
    expect(await (await fetch(`${server.url}${brandingAfter.logo.url}`)).arrayBuffer()).toEqual(logoBefore)
    // The identity keys go on after the copied ones: a new upload lists first, as on the embedded database.
    const c = await uploadPdfTo(server.url, token, makePdf({ text: () => 'third' }))
    expect((await files(server.url, token)).map((file: { id: string }) => file.id)).toEqual([
      c.id,
      ...before.map((file: { id: string }) => file.id),
    ])
  } finally {
    await server.stop()
  }

  // Not twice into the same database (the URL in PDFSHARE_MIGRATE_TO this time); and the embedded file was only read.
  const again = await run(['database', 'migrate', '--data', dataDir], { env: { PDFSHARE_MIGRATE_TO: postgres.url } })
  expect(again.code).not.toBe(0)
  expect(again.stderr).toContain('already holds pdfshare data')
  const back = await startServer(['--data', dataDir])
  try {
    expect(await files(back.url, token)).toEqual(before)
  } finally {
    await back.stop()
  }
})

test('clear refusals: no URL, not PostgreSQL, from PostgreSQL, a server that refuses (its password never shown)', async () => {
  expect((await run(['database', 'migrate', '--data', dataDir])).stderr).toContain('needs the PostgreSQL URL: --to -')
  expect((await run(['database', 'migrate', '--to', 'file:/tmp/x.db', '--data', dataDir])).stderr).toContain('needs the PostgreSQL URL')
  const wrong = new URL(postgres.url)
  wrong.password = 'not-the-Password-42'
  wrong.username = 'nobody'
  const refused = await run(['database', 'migrate', '--to', '-', '--data', dataDir], { stdin: wrong.href })
  expect(refused.code).not.toBe(0)
  expect(refused.stderr).not.toContain('not-the-Password-42')
  expect(refused.stderr).toContain('cannot use the PostgreSQL database postgres://nobody:***@')
  const fromPg = await run(['database', 'migrate', '--to', postgres.url, '--data', dataDir], { env: onPostgres })
  expect(fromPg.code).toBe(2)
  expect(fromPg.stderr).toContain('copies from the embedded one')
})
