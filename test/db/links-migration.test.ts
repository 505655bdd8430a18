import { afterAll, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { migrate } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations'
import { makePdf } from '../../scripts/support/pdf'
import { run, startServer } from '../../scripts/support/process'
import { bearer } from '../support/bearer'

const root = mkdtempSync(join(tmpdir(), 'pdfshare-links-migration-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const BEFORE_LINKS = embeddedMigrations.findIndex((migration) => migration.tag.startsWith('0004_'))
const pdf = makePdf({ text: () => 'shared before links existed' })
const sha256 = createHash('sha256').update(pdf).digest('hex')

/**
 * A data dir as the release before share links left it: the schema up to 0003, files carrying their own slug,
 * switches and views, a live view mark, and the blobs in their folders.
 */
async function dataDirBeforeLinks() {
  const dataDir = join(root, `data-${Math.random().toString(36).slice(2)}`)
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const client = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
  await migrate(client, embeddedMigrations.slice(0, BEFORE_LINKS))
  await client.execute("INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', 1)")
  const files = [
    { id: 'file-a', slug: 'slugAslugAslugAslugAsl', blob: 'blobAblobAblobAblobAbl', allow: 1, visible: 0, views: 7, title: 'Quarterly' },
    { id: 'file-b', slug: 'slugBslugBslugBslugBsl', blob: 'blobBblobBblobBblobBbl', allow: 0, visible: 1, views: 0, title: '' },
  ]
  for (const [i, file] of files.entries()) {
    await client.execute({
      sql: `INSERT INTO files (id, owner_id, slug, blob_key, filename, title, description, size, sha256, allow_download,
              search_engine_visible, views, created_at, updated_at) VALUES (?, 'u1', ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        file.id,
        file.slug,
        file.blob,
        `${file.id}.pdf`,
        file.title,
        pdf.length,
        sha256,
        file.allow,
        file.visible,
        file.views,
        10 + i,
        20 + i,
      ],
    })
    mkdirSync(join(dataDir, 'blobs', file.blob.slice(0, 2)), { recursive: true })
    writeFileSync(join(dataDir, 'blobs', file.blob.slice(0, 2), `${file.blob}.pdf`), pdf)
  }
  await client.execute({
    sql: "INSERT INTO view_marks (file_id, visitor, seen_at) VALUES ('file-a', 'tag.visitor', ?)",
    args: [Date.now()],
  })
  client.close()
  return { dataDir, files }
}

test('a database from before links migrates: every file gets a default link with its slug, switches and views', async () => {
  const { dataDir } = await dataDirBeforeLinks()
  const client = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
  try {
    expect(await migrate(client)).toBe(embeddedMigrations.length - BEFORE_LINKS)
    const links = await client.execute(
      'SELECT file_id, slug, is_default, label, allow_download, search_engine_visible, expires_at, max_views, password_hash, disabled, views, created_at, updated_at, id FROM links ORDER BY file_id',
    )
    expect(links.rows.map((row) => Array.from(row).slice(0, 13))).toEqual([
      ['file-a', 'slugAslugAslugAslugAsl', 1, '', 1, 0, null, null, null, 0, 7, 10, 20],
      ['file-b', 'slugBslugBslugBslugBsl', 1, '', 0, 1, null, null, null, 0, 0, 11, 21],
    ])
    for (const row of links.rows) expect(String(row.id)).toMatch(/^[0-9a-f]{32}$/)
    const files = await client.execute('SELECT id, views, uploaded_at, created_at, version_id FROM files ORDER BY id')
    for (const row of files.rows) {
      expect(row.uploaded_at).toBe(row.created_at)
      expect(String(row.version_id)).toMatch(/^[0-9a-f]{32}$/)
    }
    expect(files.rows.map((row) => row.views)).toEqual([7, 0])
    const columns = (await client.execute("SELECT name FROM pragma_table_info('files')")).rows.map((row) => row.name)
    expect(columns).not.toContain('slug')
    expect(columns).not.toContain('allow_download')
    // The live view mark now belongs to the file's default link: that visitor is still a repeat.
    const marks = await client.execute('SELECT l.file_id, m.visitor FROM view_marks m JOIN links l ON l.id = m.link_id')
    expect(marks.rows.map((row) => Array.from(row))).toEqual([['file-a', 'tag.visitor']])
    expect((await client.execute('PRAGMA foreign_key_check')).rows).toEqual([])
  } finally {
    client.close()
  }
})

test('an existing data dir keeps every share URL working after the upgrade, with its switches and views', async () => {
  const { dataDir, files } = await dataDirBeforeLinks()
  const server = await startServer(['--data', dataDir])
  try {
    const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
    for (const file of files) {
      const api = await fetch(`${server.url}/api/files/${file.id}`, { headers: bearer(token) })
      const { data } = (await api.json()) as { data: Record<string, unknown> }
      expect(data.shareUrl).toEndWith(`/s/${file.slug}`)
      expect(data.allowDownload).toBe(file.allow === 1)
      expect(data.searchEngineVisible).toBe(file.visible === 1)
      expect(data.views).toBe(file.views)
      const page = await fetch(`${server.url}/s/${file.slug}`)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain(`<title>${file.title || `${file.id}.pdf`}</title>`)
      // A link that does not allow downloads sends its PDF on no route (docs/share-page.md); the others, the same bytes.
      const bytes = await fetch(`${server.url}/s/${file.slug}/file`)
      if (file.allow === 1) expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(new Uint8Array(pdf))
      else expect(bytes.status).toBe(403)
      expect((await fetch(`${server.url}/s/${file.slug}/download`)).status).toBe(file.allow === 1 ? 200 : 403)
    }
  } finally {
    await server.stop()
  }
})
