import { describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { untilDrawn } from '../support/busy'
import { json, form, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { dialectOf } from '../../src/db/database'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'

// Share lookups are cached while the database is unchanged and views are written in group commits;
// what a visitor sees must never lag behind what the owner did.
// X-Forwarded-For is trusted for one hop, so tests can stand for visitors at different addresses.
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1' })
const owner = await server.user('owner')

async function newFile() {
  const file = await uploadPdf(server, owner)
  return { id: file.id, path: sharePathOf(file) }
}
/** A share page; its 503 while the renderers count a view-only PDF's pages (busy on a loaded machine) asked again. */
const page = (path: string, ua = FIREFOX, ip?: string) =>
  untilDrawn(() => server.call('GET', path, { headers: { 'user-agent': ua, ...(ip && { 'x-forwarded-for': ip }) } }))
const views = async (id: string) => (await json(await server.call('GET', `/api/files/${id}`, { token: owner.token }))).data.views as number

describe('cached share lookups follow every change at once', () => {
  test('a new title, the download switch and a deletion show on the very next request', async () => {
    const file = await newFile()
    expect(await (await page(file.path)).text()).not.toContain('Renamed report')
    expect((await server.call('GET', `${file.path}/download`)).status).toBe(200)

    const patch = (body: object) =>
      server.call('PUT', `/api/files/${file.id}`, {
        token: owner.token,
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      })
    expect((await patch({ title: 'Renamed report', allowDownload: false })).status).toBe(200)
    expect(await (await page(file.path)).text()).toContain('Renamed report')
    expect((await server.call('GET', `${file.path}/download`)).status).toBe(403)

    expect((await server.call('DELETE', `/api/files/${file.id}`, { token: owner.token })).status).toBe(200)
    expect((await page(file.path)).status).toBe(404)
    expect((await server.call('GET', `${file.path}/file`)).status).toBe(404)
  })

  test('a replaced PDF is served at once under its new ETag', async () => {
    const file = await newFile()
    const first = await server.call('GET', `${file.path}/file`)
    await first.arrayBuffer()
    const replacement = makePdf({ pages: 3 })
    expect((await server.call('PUT', `/api/files/${file.id}`, { token: owner.token, body: form({ bytes: replacement }) })).status).toBe(200)
    const second = await server.call('GET', `${file.path}/file`)
    expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'))
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(replacement)
  })
})

describe('views in group commits', () => {
  test('the same visitor twice in one group counts once, and only one of the two answers sets the cookie', async () => {
    const file = await newFile()
    const responses = await Promise.all([page(file.path), page(file.path)])
    expect(responses.map((r) => r.status)).toEqual([200, 200])
    expect(responses.filter((r) => r.headers.get('set-cookie')).length).toBe(1)
    expect(await views(file.id)).toBe(1)
  })

  test('distinct visitors to several files in one group: each file gets exactly its own', async () => {
    const a = await newFile()
    const b = await newFile()
    const visits = [
      ...Array.from({ length: 30 }, (_, i) => page(a.path, `${FIREFOX} a${i}`, `198.51.100.${i}`)),
      ...Array.from({ length: 12 }, (_, i) => page(b.path, `${FIREFOX} b${i}`, `203.0.113.${i}`)),
    ]
    await Promise.all(visits)
    expect(await views(a.id)).toBe(30)
    expect(await views(b.id)).toBe(12)
  })

  test('a view is committed before its page is answered', async () => {
    const file = await newFile()
    await page(file.path)
    // Read by a separate connection, as a crash-restarted server would.
    expect(await viewsOnAnotherConnection(file.id)).toBe(1)
  })
})

/** A file's views as another connection to the server's database reads them (not the server's own client). */
async function viewsOnAnotherConnection(fileId: string): Promise<number> {
  const url = server.config.databaseUrl
  if (dialectOf(url) === 'postgres') {
    const other = new SQL(url, { max: 1 })
    try {
      const [row] = await other.unsafe('SELECT views FROM files WHERE id = $1', [fileId]).values()
      return Number(row[0])
    } finally {
      await other.close()
    }
  }
  const { createClient } = await import('@libsql/client')
  const other = createClient({ url })
  try {
    const result = await other.execute({ sql: 'SELECT views FROM files WHERE id = ?', args: [fileId] })
    return Number(result.rows[0]![0])
  } finally {
    other.close()
  }
}

describe('GET /api/files/:id from the versioned cache', () => {
  test('views counted after a read show on the next read; a foreign id stays 404 however often it is asked', async () => {
    const file = await newFile()
    expect(await views(file.id)).toBe(0)
    expect(await views(file.id)).toBe(0)
    await page(file.path)
    expect(await views(file.id)).toBe(1)
    const stranger = await server.user('stranger')
    for (let i = 0; i < 2; i++) expect((await server.call('GET', `/api/files/${file.id}`, { token: stranger.token })).status).toBe(404)
  })
})

describe('file responses go out as built, with every common header', () => {
  test('/s/:slug/file (200 and 206), /download and /api/files/:id/content carry the request id and the security headers', async () => {
    const file = await newFile()
    const responses = [
      await server.call('GET', `${file.path}/file`),
      await server.call('GET', `${file.path}/file`, { headers: { range: 'bytes=0-9' } }),
      await server.call('GET', `${file.path}/download`),
      await server.call('GET', `/api/files/${file.id}/content`, { token: owner.token, headers: { 'x-request-id': 'mine-1' } }),
    ]
    for (const response of responses) {
      expect(response.headers.get('x-request-id')).toBeTruthy()
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
      expect(response.headers.get('content-type')).toBe('application/pdf')
    }
    expect(responses[3]!.headers.get('x-request-id')).toBe('mine-1')
    // The shared PDF's own policy wins over the API default.
    for (const response of responses.slice(0, 3))
      expect(response.headers.get('content-security-policy')).toBe("sandbox; frame-ancestors 'self'")
    expect(responses[1]!.status).toBe(206)
    expect(responses[1]!.headers.get('content-range')).toMatch(/^bytes 0-9\/\d+$/)
    expect(responses[2]!.headers.get('content-disposition')).toStartWith('attachment;')
    expect(responses[0]!.headers.get('content-disposition')).toStartWith('inline;')
  })
})
