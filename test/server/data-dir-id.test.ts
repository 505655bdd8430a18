import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { bearer } from '../support/bearer'
import { makePdf } from '../../scripts/support/pdf'
import { run, startServer } from '../../scripts/support/process'
import { uploadPdfTo } from '../support/uploads'

const root = mkdtempSync(join(tmpdir(), 'pdfshare-pairing-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let counter = 0
const fresh = (name: string) => join(root, `${name}-${++counter}`)

/** A data dir with one user and `count` PDFs uploaded through a real server. */
async function populated(count = 2) {
  const dataDir = fresh('data')
  await run(['user', 'add', 'alice', '--data', dataDir])
  const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
  const server = await startServer(['--data', dataDir])
  const ids: string[] = []
  for (let i = 0; i < count; i++) ids.push((await uploadPdfTo(server.url, token, makePdf({ text: () => `pdf ${i}` }))).id)
  await server.stop()
  return { dataDir, token, ids }
}

const blobsOf = (dataDir: string) =>
  readdirSync(join(dataDir, 'blobs'), { recursive: true }).filter((name) => String(name).endsWith('.pdf')).length

/** `serve` either starts (then it is stopped at once) or exits; what it printed either way. */
async function serveOutcome(dataDir: string, env: Record<string, string> = {}): Promise<{ started: boolean; stderr: string }> {
  try {
    const server = await startServer(['--data', dataDir], { env })
    await server.stop()
    return { started: true, stderr: server.stderr() }
  } catch (error) {
    return { started: false, stderr: (error as Error).message }
  }
}

/** Makes a data dir look like one written before data dir ids existed. */
async function forgetPairing(dataDir: string) {
  rmSync(join(dataDir, 'data-dir-id'), { force: true })
  const client = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
  // As a data dir from before ids looks to the pairing: no id on either side (later migrations stay applied).
  await client.execute("DELETE FROM meta WHERE key = 'data_dir_id'")
  client.close()
}

test('a wrong PDFSHARE_DATABASE_URL (an empty database) is refused at start with one line, and no PDF is touched', async () => {
  const { dataDir, token, ids } = await populated()
  const wrong = { PDFSHARE_DATABASE_URL: `file:${fresh('elsewhere')}.db` }

  const serve = await serveOutcome(dataDir, wrong)
  expect(serve.started).toBe(false)
  expect(serve.stderr).toContain('PDFSHARE_DATABASE_URL')
  expect(serve.stderr).toContain('--data')
  expect(blobsOf(dataDir)).toBe(2)

  const cli = await run(['user', 'list', '--data', dataDir], { env: wrong })
  expect(cli.code).toBe(2)
  expect(cli.stderr.trim().split('\n')).toHaveLength(1)
  expect(cli.stderr).toStartWith('pdfshare: the database and the data dir do not belong together')

  // With the right settings everything is still there.
  const server = await startServer(['--data', dataDir])
  try {
    for (const id of ids) expect((await fetch(`${server.url}/api/files/${id}/content`, { headers: bearer(token) })).status).toBe(200)
  } finally {
    await server.stop()
  }
})

test('the right database with another (empty) data dir is refused too, and that dir is not claimed', async () => {
  const { dataDir } = await populated(1)
  const elsewhere = fresh('empty')
  const cli = await run(['user', 'list', '--data', elsewhere], { env: { PDFSHARE_DATABASE_URL: `file:${join(dataDir, 'pdfshare.db')}` } })
  expect(cli.code).toBe(2)
  expect(cli.stderr).toContain('PDFSHARE_DATABASE_URL')
  expect(existsSync(join(elsewhere, 'data-dir-id'))).toBe(false)
  expect((await run(['user', 'list', '--data', dataDir])).code).toBe(0) // the real pair is unharmed
})

test('a data dir from before ids is adopted: it starts, keeps its files, and gets the same id on both sides', async () => {
  const { dataDir, token, ids } = await populated(1)
  await forgetPairing(dataDir)
  const server = await startServer(['--data', dataDir])
  try {
    expect((await fetch(`${server.url}/api/files/${ids[0]}/content`, { headers: bearer(token) })).status).toBe(200)
  } finally {
    await server.stop()
  }
  const fileId = readFileSync(join(dataDir, 'data-dir-id'), 'utf8').trim()
  const client = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
  const stored = (await client.execute("SELECT value FROM meta WHERE key = 'data_dir_id'")).rows[0]?.[0]
  client.close()
  expect(fileId).toMatch(/^[A-Za-z0-9_-]{16,}$/)
  expect(stored).toBe(fileId)
})

test('a data dir from before ids is not adopted by an empty database while its blob store holds PDFs', async () => {
  const { dataDir } = await populated(2)
  rmSync(join(dataDir, 'data-dir-id'), { force: true })
  const serve = await serveOutcome(dataDir, { PDFSHARE_DATABASE_URL: `file:${fresh('new')}.db` })
  expect(serve.started).toBe(false)
  expect(serve.stderr).toContain('PDFSHARE_DATABASE_URL')
  expect(blobsOf(dataDir)).toBe(2)
})
