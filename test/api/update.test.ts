import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { form, json, rawMultipart, startTestApp, tempFilesOf } from '../support/harness'
import { makePdf, pdfOfSize } from '../../scripts/support/pdf'
import { uploadPdf } from '../support/uploads'

const server = await startTestApp({ PDFSHARE_MAX_FILE_SIZE: '1MB', PDFSHARE_MAX_UPLOADS_PER_USER: '16' })
const alice = await server.user('alice')
const original = makePdf({ pages: 1, text: () => 'original' })
const replacement = makePdf({ pages: 3, text: (p) => `replacement ${p}` })

const uploaded = (fields: Record<string, string> = { title: 'T', desc: 'D', filename: 'orig.pdf' }) =>
  uploadPdf(server, alice, original, fields)
const putJson = (id: string, body: unknown) =>
  server.call('PUT', `/api/files/${id}`, {
    token: alice.token,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  })
const putForm = (id: string, body: FormData) => server.call('PUT', `/api/files/${id}`, { token: alice.token, body })
const get = async (id: string) => (await json(await server.call('GET', `/api/files/${id}`, { token: alice.token }))).data
const content = async (id: string) =>
  new Uint8Array(await (await server.call('GET', `/api/files/${id}/content`, { token: alice.token })).arrayBuffer())

describe('PUT /api/files/:id with JSON', () => {
  test('updates the fields sent and leaves omitted fields unchanged', async () => {
    const file = await uploaded()
    const response = await putJson(file.id, { title: 'New title', allowDownload: false })
    expect(response.status).toBe(200)
    const { success, data } = await json(response)
    expect(success).toBe(true)
    expect(data).toMatchObject({
      title: 'New title',
      allowDownload: false,
      desc: 'D',
      description: 'D',
      filename: 'orig.pdf',
      searchEngineVisible: false,
    })
    expect(await get(file.id)).toEqual(data)
  })

  test('description and desc are the same field', async () => {
    const file = await uploaded()
    expect((await json(await putJson(file.id, { description: 'via description' }))).data.desc).toBe('via description')
    expect((await json(await putJson(file.id, { desc: 'via desc' }))).data.description).toBe('via desc')
    expect((await putJson(file.id, { desc: 'a', description: 'b' })).status).toBe(400)
  })

  test('"" clears title and desc to "", and null does the same', async () => {
    const file = await uploaded()
    const cleared = (await json(await putJson(file.id, { title: '', desc: '' }))).data
    expect(cleared).toMatchObject({ title: '', desc: '', description: '' })
    const again = await uploaded()
    expect((await json(await putJson(again.id, { title: null, description: null }))).data).toMatchObject({ title: '', desc: '' })
  })

  test('filename can be changed, never emptied', async () => {
    const file = await uploaded()
    expect((await json(await putJson(file.id, { filename: 'renamed.pdf' }))).data.filename).toBe('renamed.pdf')
    expect((await putJson(file.id, { filename: '' })).status).toBe(400)
    expect((await putJson(file.id, { filename: null })).status).toBe(400)
  })

  test('JSON booleans: true/false, 0/1 and the form words', async () => {
    const file = await uploaded()
    const cases: [unknown, boolean][] = [
      [true, true],
      [false, false],
      [1, true],
      [0, false],
      ['yes', true],
      ['OFF', false],
      ['on', true],
      ['0', false],
    ]
    for (const [value, expected] of cases) {
      expect((await json(await putJson(file.id, { searchEngineVisible: value }))).data.searchEngineVisible).toBe(expected)
    }
    for (const value of [2, '', 'maybe', null, [], {}]) {
      const response = await putJson(file.id, { allowDownload: value })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toContain('allowDownload must be one of')
    }
  })

  test('unknown fields are ignored; id, views, fileSize cannot be set', async () => {
    const file = await uploaded()
    const { data } = await json(await putJson(file.id, { id: 'other', views: 99, fileSize: 1, shareUrl: 'x', colour: 'blue' }))
    expect(data).toMatchObject({ id: file.id, views: 0, fileSize: file.fileSize, shareUrl: file.shareUrl })
  })

  test('limits apply: 160/500/255 code points', async () => {
    const file = await uploaded()
    expect((await putJson(file.id, { title: '😀'.repeat(160) })).status).toBe(200)
    expect((await putJson(file.id, { title: '😀'.repeat(161) })).status).toBe(400)
    expect((await putJson(file.id, { desc: 'x'.repeat(500) })).status).toBe(200)
    expect((await putJson(file.id, { desc: 'x'.repeat(501) })).status).toBe(400)
    expect((await putJson(file.id, { filename: `${'x'.repeat(251)}.pdf` })).status).toBe(200)
    expect((await putJson(file.id, { filename: `${'x'.repeat(252)}.pdf` })).status).toBe(400)
  })

  test('a wrong type → 400', async () => {
    const file = await uploaded()
    expect((await putJson(file.id, { title: 5 })).status).toBe(400)
    expect((await putJson(file.id, ['title'])).status).toBe(400)
    expect((await putJson(file.id, 'title')).status).toBe(400)
  })

  test('malformed or empty JSON → 400 and nothing changes', async () => {
    const file = await uploaded()
    for (const body of ['{"title": "x"', '', 'nope']) {
      const response = await server.call('PUT', `/api/files/${file.id}`, {
        token: alice.token,
        body,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toContain('Malformed JSON body')
    }
    expect(await get(file.id)).toEqual(file)
  })

  test('a JSON body over 64 KiB → 413', async () => {
    const file = await uploaded()
    const response = await putJson(file.id, { title: 'x', padding: 'y'.repeat(70 * 1024) })
    expect(response.status).toBe(413)
    expect((await json(response)).code).toBe('body_too_large')
  })

  test('updatedAt moves forward on every PUT, also one that changes nothing; createdAt stays', async () => {
    const file = await uploaded()
    const first = (await json(await putJson(file.id, {}))).data
    const second = (await json(await putJson(file.id, {}))).data
    expect(Date.parse(first.updatedAt)).toBeGreaterThan(Date.parse(file.updatedAt))
    expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt))
    expect(second.createdAt).toBe(file.createdAt)
  })

  test('other content types → 415', async () => {
    const file = await uploaded()
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/pdf']) {
      const response = await server.call('PUT', `/api/files/${file.id}`, {
        token: alice.token,
        body: 'title=x',
        headers: { 'content-type': type },
      })
      expect(response.status).toBe(415)
      expect((await json(response)).code).toBe('unsupported_media_type')
    }
  })

  test('an unknown or malformed id → 404', async () => {
    expect((await putJson('does-not-exist', { title: 'x' })).status).toBe(404)
    expect((await putJson('bad%20id!', { title: 'x' })).status).toBe(404)
  })
})

describe('PUT /api/files/:id with multipart', () => {
  test('metadata only, form booleans and clearing', async () => {
    const file = await uploaded()
    const { data } = await json(await putForm(file.id, form(undefined, { title: '', allowDownload: 'off', searchEngineVisible: 'on' })))
    expect(data).toMatchObject({ title: '', desc: 'D', allowDownload: false, searchEngineVisible: true, fileSize: file.fileSize })
  })

  test('replacement keeps id, shareUrl, filename, views and createdAt; changes bytes, size, sha256 and updatedAt', async () => {
    const file = await uploaded()
    await server.ctx.db.orm.run(sql`UPDATE files SET views = 7 WHERE id = ${file.id}`)
    const response = await putForm(file.id, form({ bytes: replacement, name: 'other-name.pdf' }, { title: 'Replaced' }))
    expect(response.status).toBe(200)
    const { data } = await json(response)
    expect(data).toMatchObject({
      id: file.id,
      shareUrl: file.shareUrl,
      filename: 'orig.pdf',
      views: 7,
      createdAt: file.createdAt,
      title: 'Replaced',
      desc: 'D',
    })
    expect(data.fileSize).toBe(replacement.length)
    expect(data.sha256).toBe(new Bun.CryptoHasher('sha256').update(replacement).digest('hex'))
    expect(Date.parse(data.updatedAt)).toBeGreaterThan(Date.parse(file.updatedAt))
    expect(await content(file.id)).toEqual(replacement)
  })

  test('a replacement with junk before its %PDF- (within the first 1,024 bytes) is accepted and stored exactly', async () => {
    const file = await uploaded()
    const sent = new Uint8Array(Buffer.concat([new Uint8Array([0xef, 0xbb, 0xbf]), new TextEncoder().encode('\r\njunk\r\n'), replacement]))
    const response = await putForm(file.id, form({ bytes: sent }))
    expect(response.status).toBe(200)
    expect((await json(response)).data.fileSize).toBe(sent.length)
    expect(await content(file.id)).toEqual(sent)
  })

  test('replacement with a filename field renames too', async () => {
    const file = await uploaded()
    const { data } = await json(await putForm(file.id, form({ bytes: replacement }, { filename: 'v2.pdf' })))
    expect(data.filename).toBe('v2.pdf')
  })

  test('the old blob stays, as the newest previous version, after a replacement', async () => {
    const file = await uploaded()
    const oldKey =
      (await server.ctx.db.orm.all<{ blob_key: string }>(sql`SELECT blob_key FROM files WHERE id = ${file.id}`))[0]?.blob_key ?? ''
    const before = new Set(await Array.fromAsync(server.ctx.blobs.keys()))
    await putForm(file.id, form({ bytes: replacement }))
    const after = new Set(await Array.fromAsync(server.ctx.blobs.keys()))
    expect(after.size).toBe(before.size + 1)
    expect(after.has(oldKey)).toBe(true)
    const kept = await server.ctx.db.orm.all<{ blob_key: string }>(sql`SELECT blob_key FROM file_versions WHERE file_id = ${file.id}`)
    expect(kept).toEqual([{ blob_key: oldKey }])
  })

  describe('a refused replacement changes nothing, metadata included', () => {
    const cases: [string, () => FormData, number][] = [
      ['not a PDF', () => form({ bytes: new TextEncoder().encode('hello'), name: 'x.pdf' }, { title: 'Changed' }), 415],
      [
        '%PDF- only after the first 1,024 bytes',
        () => form({ bytes: new Uint8Array(Buffer.concat([new Uint8Array(1020).fill(0x20), replacement])) }, { title: 'Changed' }),
        415,
      ],
      ['wrong extension', () => form({ bytes: replacement, name: 'x.doc' }, { title: 'Changed' }), 415],
      ['over the configured cap', () => form({ bytes: pdfOfSize(1024 * 1024 + 1) }, { title: 'Changed' }), 413],
      ['a bad field after the file', () => form({ bytes: replacement }, { title: 'Changed', allowDownload: 'sometimes' }, true), 400],
      ['a title too long', () => form({ bytes: replacement }, { title: 'x'.repeat(161) }), 400],
    ]
    for (const [name, body, status] of cases) {
      test(name, async () => {
        const file = await uploaded()
        const blobsBefore = (await Array.fromAsync(server.ctx.blobs.keys())).sort()
        const response = await putForm(file.id, body())
        expect(response.status).toBe(status)
        expect(await get(file.id)).toEqual(file)
        expect(await content(file.id)).toEqual(original)
        expect((await Array.fromAsync(server.ctx.blobs.keys())).sort()).toEqual(blobsBefore)
        expect(tempFilesOf(server)).toEqual([])
      })
    }
  })

  test('two file parts → 400 and nothing changes', async () => {
    const file = await uploaded()
    const { body, contentType } = rawMultipart([
      { name: 'title', body: 'Changed' },
      { name: 'file', filename: 'a.pdf', type: 'application/pdf', body: replacement },
      { name: 'file', filename: 'b.pdf', type: 'application/pdf', body: replacement },
    ])
    const response = await server.call('PUT', `/api/files/${file.id}`, {
      token: alice.token,
      body,
      headers: { 'content-type': contentType },
    })
    expect(response.status).toBe(400)
    expect(await get(file.id)).toEqual(file)
  })

  test('concurrent replacements of one file: every request succeeds, the current blob and 5 versions remain, the rest is removed', async () => {
    const file = await uploaded()
    const versions = Array.from({ length: 6 }, (_, i) => makePdf({ text: () => `version ${i}` }))
    const responses = await Promise.all(versions.map((bytes) => putForm(file.id, form({ bytes }))))
    expect(responses.map((r) => r.status)).toEqual(versions.map(() => 200))
    const final = await get(file.id)
    const stored = await content(file.id)
    expect(versions.some((v) => Buffer.from(v).equals(Buffer.from(stored)))).toBe(true)
    expect(final.sha256).toBe(new Bun.CryptoHasher('sha256').update(stored).digest('hex'))
    const keys = await Array.fromAsync(server.ctx.blobs.keys())
    const referenced = await server.ctx.db.orm.all<{ blob_key: string }>(
      sql`SELECT blob_key FROM files UNION ALL SELECT blob_key FROM file_versions`,
    )
    expect(keys.sort()).toEqual(referenced.map((r) => r.blob_key).sort())
    // 7 PDFs went through the file (the upload and 6 replacements): the current one, the 5 newest previous ones kept.
    // count(*) is a number on SQLite and a string on PostgreSQL.
    const [kept] = await server.ctx.db.orm.all<{ n: number | string }>(
      sql`SELECT count(*) AS n FROM file_versions WHERE file_id = ${file.id}`,
    )
    expect(Number(kept?.n)).toBe(5)
  })
})
