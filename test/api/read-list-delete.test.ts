import { describe, expect, test } from 'bun:test'
import { form, json, startTestApp } from '../support/harness'
import { makePdf } from '../support/pdf'

const server = await startTestApp()
const pdf = makePdf()

async function upload(token: string, title: string) {
  const response = await server.call('POST', '/api/files/upload', { token, body: form({ bytes: pdf }, { title }) })
  expect(response.status).toBe(201)
  return (await json(response)).data
}

describe('GET /api/files/:id', () => {
  test('200 with the same File the upload returned', async () => {
    const alice = await server.user()
    const file = await upload(alice.token, 'one')
    const response = await server.call('GET', `/api/files/${file.id}`, { token: alice.token })
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({ success: true, data: file })
  })

  test('unknown and malformed ids → 404 with the same body', async () => {
    const alice = await server.user()
    const bodies = []
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'x'.repeat(65), '..%2F..%2Fetc', '%00']) {
      const response = await server.call('GET', `/api/files/${id}`, { token: alice.token })
      expect(response.status).toBe(404)
      bodies.push(await json(response))
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1)
    expect(bodies[0]).toEqual({ success: false, error: 'File not found', code: 'not_found' })
  })
})

describe('GET /api/files', () => {
  test('newest first, paged with a cursor, stable while files are added', async () => {
    const alice = await server.user()
    const titles = Array.from({ length: 7 }, (_, i) => `file ${i}`)
    for (const title of titles) await upload(alice.token, title)

    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const query: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3'
      const response = await server.call('GET', `/api/files${query}`, { token: alice.token })
      expect(response.status).toBe(200)
      const body: { data: { title: string }[]; nextCursor: string | null } = await json(response)
      expect(body.data.length).toBeLessThanOrEqual(3)
      seen.push(...body.data.map((f) => f.title))
      cursor = body.nextCursor
      if (pages++ === 0) await upload(alice.token, 'added while paging') // must not shift later pages
    } while (cursor)
    expect(seen).toEqual([...titles].reverse())
    expect(pages).toBe(3)
  })

  test('default limit is 20', async () => {
    const bob = await server.user()
    for (let i = 0; i < 21; i++) await upload(bob.token, `b${i}`)
    const body = await json(await server.call('GET', '/api/files', { token: bob.token }))
    expect(body.data).toHaveLength(20)
    expect(typeof body.nextCursor).toBe('string')
  })

  test('an empty list', async () => {
    const carol = await server.user()
    expect(await json(await server.call('GET', '/api/files', { token: carol.token }))).toEqual({ success: true, data: [], nextCursor: null })
  })

  test('limit outside 1–100 or not a number → 400; a forged cursor → 400', async () => {
    const dave = await server.user()
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?limit=2.5', '?cursor=bm90LWEtY3Vyc29y', '?cursor=%%%']) {
      const response = await server.call('GET', `/api/files${query}`, { token: dave.token })
      expect(`${query} ${response.status}`).toBe(`${query} 400`)
      expect((await json(response)).code).toBe('invalid_request')
    }
    const limitError = await json(await server.call('GET', '/api/files?limit=500', { token: dave.token }))
    expect(limitError.error).toBe('limit must be an integer from 1 to 100')
  })
})

describe('DELETE /api/files/:id', () => {
  test('removes the row and the blob; then 404 everywhere', async () => {
    const erin = await server.user()
    const file = await upload(erin.token, 'doomed')
    const keysBefore = (await Array.fromAsync(server.ctx.blobs.keys())).length
    const response = await server.call('DELETE', `/api/files/${file.id}`, { token: erin.token })
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({ success: true, data: { id: file.id } })
    expect((await Array.fromAsync(server.ctx.blobs.keys())).length).toBe(keysBefore - 1)
    for (const [method, path] of [['GET', `/api/files/${file.id}`], ['GET', `/api/files/${file.id}/content`], ['DELETE', `/api/files/${file.id}`]] as const) {
      expect((await server.call(method, path, { token: erin.token })).status).toBe(404)
    }
  })
})

describe('GET /api/me', () => {
  test('name, usage and limits', async () => {
    const frank = await server.user('frank')
    await upload(frank.token, 'a')
    await upload(frank.token, 'b')
    const body = await json(await server.call('GET', '/api/me', { token: frank.token }))
    expect(body).toEqual({
      success: true,
      data: { id: frank.id, name: 'frank', usage: { files: 2, bytes: 2 * pdf.length }, limits: { maxStorageBytes: null, maxFiles: null, maxFileSize: 104857600 } },
    })
  })
})
