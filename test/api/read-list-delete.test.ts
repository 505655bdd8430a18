import { describe, expect, test } from 'bun:test'
import { json, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { browserNumber } from '../support/user-agents'

const server = await startTestApp()
const pdf = makePdf()

const upload = (token: string, title: string) => uploadPdf(server, { token }, pdf, { title })

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
    expect(await json(await server.call('GET', '/api/files', { token: carol.token }))).toEqual({
      success: true,
      data: [],
      nextCursor: null,
    })
  })

  test('?q= matches filename or title, ASCII case-insensitively, with % and _ taken literally; paged like the rest', async () => {
    const erin = await server.user()
    for (const title of ['Quarterly ZEBRA', 'zebra_2026', 'zebra 2026', 'minutes', '100% done']) await upload(erin.token, title)
    const titles = async (query: string) =>
      (await json(await server.call('GET', `/api/files?${query}`, { token: erin.token }))).data.map((f: { title: string }) => f.title)
    expect(await titles('q=zebra')).toEqual(['zebra 2026', 'zebra_2026', 'Quarterly ZEBRA'])
    expect(await titles('q=zebra_')).toEqual(['zebra_2026'])
    expect(await titles('q=%25')).toEqual(['100% done'])
    expect(await titles('q=nothing-like-this')).toEqual([])
    // The filename matches too (every upload here is named after the test PDF's default name).
    const named = await titles('q=.pdf')
    expect(named).toHaveLength(5)
    const first = await json(await server.call('GET', '/api/files?q=zebra&limit=2', { token: erin.token }))
    const rest = await json(
      await server.call('GET', `/api/files?q=zebra&limit=2&cursor=${encodeURIComponent(first.nextCursor)}`, { token: erin.token }),
    )
    expect([...first.data, ...rest.data].map((f: { title: string }) => f.title)).toEqual(['zebra 2026', 'zebra_2026', 'Quarterly ZEBRA'])
    expect(rest.nextCursor).toBeNull()
    // Another user's files never match.
    const frank = await server.user()
    expect((await json(await server.call('GET', '/api/files?q=zebra', { token: frank.token }))).data).toEqual([])
  })

  test('?order=oldest pages from the first upload on', async () => {
    const gina = await server.user()
    for (const title of ['g1', 'g2', 'g3']) await upload(gina.token, title)
    const first = await json(await server.call('GET', '/api/files?order=oldest&limit=2', { token: gina.token }))
    expect(first.data.map((f: { title: string }) => f.title)).toEqual(['g1', 'g2'])
    const rest = await json(
      await server.call('GET', `/api/files?order=oldest&limit=2&cursor=${encodeURIComponent(first.nextCursor)}`, { token: gina.token }),
    )
    expect(rest.data.map((f: { title: string }) => f.title)).toEqual(['g3'])
  })

  test('?order=name, views and size page by keyset through every file once, ties in upload order', async () => {
    const ivy = await server.user()
    const spec = [
      { title: 'banana', size: 3 },
      { title: '', size: 1 }, // sorts by its filename, report.pdf
      { title: 'Apple', size: 2 },
      { title: 'cherry', size: 2 },
      { title: 'apple', size: 1 },
    ]
    const ids: Record<string, string> = {}
    for (const [i, file] of spec.entries()) {
      ids[file.title || `untitled${i}`] = (await uploadPdf(server, ivy, makePdf({ pages: file.size }), { title: file.title })).id
    }
    // Views: 2 for cherry, 1 for banana, none for the rest.
    for (const [name, count] of [
      ['cherry', 2],
      ['banana', 1],
    ] as const) {
      const { data } = await json(await server.call('GET', `/api/files/${ids[name]}`, { token: ivy.token }))
      const path = sharePathOf(data)
      for (let v = 0; v < count; v++) await server.call('GET', path, { headers: { 'user-agent': browserNumber(`${name}${v}`) } })
    }
    const all = async (order: string) => {
      const titles: string[] = []
      let cursor: string | null = null
      do {
        const query: string = `order=${order}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
        const body: { data: { title: string; filename: string }[]; nextCursor: string | null } = await json(
          await server.call('GET', `/api/files?${query}`, { token: ivy.token }),
        )
        titles.push(...body.data.map((f) => f.title || f.filename))
        cursor = body.nextCursor
      } while (cursor)
      return titles
    }
    expect(await all('name')).toEqual(['Apple', 'apple', 'banana', 'cherry', 'report.pdf'])
    // Most views first; files with as many views as each other, newest upload first.
    expect(await all('views')).toEqual(['cherry', 'banana', 'apple', 'Apple', 'report.pdf'])
    const bySize = await all('size')
    expect(bySize[0]).toBe('banana')
    expect(bySize).toHaveLength(5)
    expect(new Set(bySize).size).toBe(5)
    // A cursor of one order is refused by another.
    const { nextCursor } = await json(await server.call('GET', '/api/files?order=name&limit=1', { token: ivy.token }))
    const mixed = await server.call('GET', `/api/files?order=size&cursor=${encodeURIComponent(nextCursor)}`, { token: ivy.token })
    expect(mixed.status).toBe(400)
  })

  test('a bad q or order → 400 with the rule', async () => {
    const hal = await server.user()
    for (const [query, message] of [
      ['?q=', 'q must be 1 to 200 characters'],
      [`?q=${'x'.repeat(201)}`, 'q must be 1 to 200 characters'],
      ['?order=sideways', 'order must be newest, oldest, name, views or size'],
    ]) {
      const response = await server.call('GET', `/api/files${query}`, { token: hal.token })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toBe(message!)
    }
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
    for (const [method, path] of [
      ['GET', `/api/files/${file.id}`],
      ['GET', `/api/files/${file.id}/content`],
      ['DELETE', `/api/files/${file.id}`],
    ] as const) {
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
      data: {
        id: frank.id,
        name: 'frank',
        admin: false, // not the first user of this install
        hasPassword: false,
        email: null,
        pendingEmail: null, // no change of address waiting for its confirmation
        language: null, // the mails follow the instance's default (PATCH /api/me sets one)
        ssoLink: null, // no single sign-on identity waiting to be linked
        twoFactor: { enabled: false, recoveryCodesLeft: 0 },
        usage: { files: 2, bytes: 2 * pdf.length },
        limits: { maxStorageBytes: null, maxFiles: null, maxFileSize: 104857600 },
      },
    })
  })
})
