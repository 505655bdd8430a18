import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import fc from 'fast-check'
import { pruneIdempotencyKeys } from '../../src/core/idempotency/prune'
import { LEASE_MS } from '../../src/core/idempotency/claim'
import { form, json, rawMultipart, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'

// Idempotency-Key on the API's writes (docs/api.md, Retrying writes), through HTTP on every backend: the key and
// its answer live in the database, so behind the balancer a retry reaches another instance than its first try.
const server = await startTestApp()
const { files, idempotencyKeys } = server.ctx.db.tables

const UPLOAD = '/api/files/upload'
const keyed = (key: string, headers: Record<string, string> = {}) => ({ 'idempotency-key': key, ...headers })
const newKey = () => crypto.randomUUID()
const pdfNamed = (text: string) => makePdf({ text: () => text })

/** The files a user has (rows) and the blobs the whole store holds. */
async function stored(userId: string) {
  const rows = await server.ctx.db.orm.select({ id: files.id }).from(files).where(eq(files.ownerId, userId))
  let blobs = 0
  for await (const _ of server.ctx.blobs.keys()) blobs++
  return { files: rows.length, blobs }
}

const upload = (token: string, key: string | undefined, bytes: Uint8Array, fields: Record<string, string> = {}) =>
  server.call('POST', UPLOAD, { token, body: form({ bytes }, fields), headers: key === undefined ? {} : keyed(key) })

/** An upload's body as held-open uploads send it. */
const heldBody = (bytes: Uint8Array) => rawMultipart([{ name: 'file', filename: 'held.pdf', type: 'application/pdf', body: bytes }])

/** An upload whose body stops after its first bytes until `finish()`: its request holds the key meanwhile. */
function uploadHeldOpen(token: string, key: string, bytes: Uint8Array) {
  const { body, contentType } = heldBody(bytes)
  let finish = () => {}
  const finished = new Promise<void>((resolve) => (finish = resolve))
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(body.slice(0, 200))
      await finished
      controller.enqueue(body.slice(200))
      controller.close()
    },
  })
  const response = server.call('POST', UPLOAD, { token, body: stream, headers: keyed(key, { 'content-type': contentType }) })
  return { response, finish }
}

/** The key's row, once some request has claimed it. */
async function claimOf(userId: string, key: string) {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const [row] = await server.ctx.db.orm
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
    if (row) return row
    await Bun.sleep(20)
  }
  throw new Error(`nobody claimed ${key}`)
}

describe('Idempotency-Key on uploads', () => {
  test('a repeat gets the kept answer (Idempotent-Replayed: true) and stores nothing new', async () => {
    const alice = await server.user()
    const key = newKey()
    const bytes = pdfNamed('once')
    const first = await upload(alice.token, key, bytes, { title: 'Once' })
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const created = await json(first)
    expect(first.headers.get('location')).toBe(`${server.config.publicUrl}/api/files/${created.data.id}`)
    const before = await stored(alice.id)
    expect(before.files).toBe(1)

    for (let i = 0; i < 2; i++) {
      const again = await upload(alice.token, key, bytes, { title: 'Once' })
      expect(again.status).toBe(201)
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(again.headers.get('location')).toBe(first.headers.get('location'))
      expect(await json(again)).toEqual(created)
    }
    expect(await stored(alice.id)).toEqual(before)
    // Without a key, the same upload is a new file: the key is what makes a retry one request.
    expect((await upload(alice.token, undefined, bytes, { title: 'Once' })).status).toBe(201)
    expect((await stored(alice.id)).files).toBe(2)
  })

  test('the same key with another body, fields or route is a 422, and nothing is stored', async () => {
    const bob = await server.user()
    const key = newKey()
    const bytes = pdfNamed('first')
    expect((await upload(bob.token, key, bytes, { title: 'A' })).status).toBe(201)
    const before = await stored(bob.id)
    for (const [bodyBytes, fields] of [
      [pdfNamed('other bytes'), { title: 'A' }],
      [bytes, { title: 'B' }],
      [bytes, { title: 'A', allowDownload: 'false' }],
    ] as const) {
      const refused = await upload(bob.token, key, bodyBytes, fields)
      expect(refused.status).toBe(422)
      const body = await json(refused)
      expect(body.code).toBe('idempotency_key_reused')
      expect(body.error).toContain('another body')
    }
    const otherRoute = await server.call('POST', `/api/files/${'x'.repeat(22)}/links`, {
      token: bob.token,
      body: '{}',
      headers: keyed(key, { 'content-type': 'application/json' }),
    })
    expect(otherRoute.status).toBe(422)
    expect((await json(otherRoute)).error).toContain('POST /api/files/upload')
    expect(await stored(bob.id)).toEqual(before)
  })

  test('keys are per user: the same key of another user is another request', async () => {
    const [one, two] = [await server.user(), await server.user()]
    const key = newKey()
    const a = await json(await upload(one.token, key, pdfNamed('one')))
    const second = await upload(two.token, key, pdfNamed('two'))
    expect(second.status).toBe(201)
    expect(second.headers.get('idempotent-replayed')).toBeNull()
    expect((await json(second)).data.id).not.toBe(a.data.id)
  })

  test('a key is 1 to 255 printable ASCII characters (else 400 before the body); the draft’s quoted form is the same key', async () => {
    const carol = await server.user()
    for (const bad of ['x'.repeat(256), 'naïve', 'tab\there']) {
      const refused = await upload(carol.token, bad, pdfNamed('bad key'))
      expect(refused.status).toBe(400)
      expect((await json(refused)).error).toContain('Idempotency-Key')
    }
    expect((await stored(carol.id)).files).toBe(0)
    const longest = `k ${'~'.repeat(253)}`
    const first = await upload(carol.token, longest, pdfNamed('long key'))
    expect(first.status).toBe(201)
    const quoted = await upload(carol.token, `"${longest}"`, pdfNamed('long key'))
    expect(quoted.headers.get('idempotent-replayed')).toBe('true')
    expect((await json(quoted)).data.id).toBe((await json(first)).data.id)
  })

  test('a refused request keeps nothing: the same key may be sent again, corrected', async () => {
    const dave = await server.user()
    const key = newKey()
    const junk = await server.call('POST', UPLOAD, {
      token: dave.token,
      body: form({ bytes: new TextEncoder().encode('not a pdf at all'), name: 'x.pdf' }),
      headers: keyed(key),
    })
    expect(junk.status).toBe(415)
    const fixed = await upload(dave.token, key, pdfNamed('fixed'))
    expect(fixed.status).toBe(201)
    expect(fixed.headers.get('idempotent-replayed')).toBeNull()
  })

  test('a retry of an upload that filled the quota is replayed, not refused by the quota it used', async () => {
    const erin = await server.user()
    await server.ctx.db.orm.update(server.ctx.db.tables.users).set({ maxFiles: 1 }).where(eq(server.ctx.db.tables.users.id, erin.id))
    const key = newKey()
    const bytes = pdfNamed('the one file')
    const first = await upload(erin.token, key, bytes)
    expect(first.status).toBe(201)
    const again = await upload(erin.token, key, bytes)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await upload(erin.token, newKey(), bytes)).status).toBe(403) // a new request still meets the quota
  })

  test('a repeat while the first still runs is a 409 with Retry-After; once it is done, the repeat gets its answer', async () => {
    const fay = await server.user()
    const key = newKey()
    const bytes = pdfNamed('slow body')
    const held = uploadHeldOpen(fay.token, key, bytes)
    await claimOf(fay.id, key)
    const busy = await upload(fay.token, key, bytes)
    expect(busy.status).toBe(409)
    expect((await json(busy)).code).toBe('idempotency_key_in_use')
    const retryAfter = Number(busy.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(LEASE_MS / 1000)
    held.finish()
    const first = await held.response
    expect(first.status).toBe(201)
    const { body, contentType } = heldBody(bytes)
    const again = await server.call('POST', UPLOAD, { token: fay.token, body, headers: keyed(key, { 'content-type': contentType }) })
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await json(again)).data.id).toBe((await json(first)).data.id)
    expect((await stored(fay.id)).files).toBe(1)
  })

  test('a claim whose lease lapsed (its instance died before the write) is taken over, and the work is done once', async () => {
    const gus = await server.user()
    const key = newKey()
    const now = Date.now()
    const lapsed = { userId: gus.id, key, request: `POST ${UPLOAD}`, lease: 'dead-instance', done: false, createdAt: now - 60_000 }
    await server.ctx.db.orm.insert(idempotencyKeys).values({ ...lapsed, leaseUntil: now - 1, expiresAt: now + 86_400_000 })
    const taken = await upload(gus.token, key, pdfNamed('taken over'))
    expect(taken.status).toBe(201)
    expect((await upload(gus.token, key, pdfNamed('taken over'))).headers.get('idempotent-replayed')).toBe('true')
    expect((await stored(gus.id)).files).toBe(1)

    // A live claim of another request: 409, Retry-After the rest of its lease.
    const live = newKey()
    await server.ctx.db.orm
      .insert(idempotencyKeys)
      .values({ ...lapsed, key: live, leaseUntil: Date.now() + 10_000, expiresAt: now + 86_400_000 })
    const busy = await upload(gus.token, live, pdfNamed('live'))
    expect(busy.status).toBe(409)
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(9)
  })

  test('a request whose key was taken over meanwhile commits nothing: its write fails with the key', async () => {
    const hal = await server.user()
    const key = newKey()
    const before = await stored(hal.id)
    const held = uploadHeldOpen(hal.token, key, pdfNamed('overtaken'))
    await claimOf(hal.id, key)
    // What a takeover does: another request's lease in the claim's place.
    await server.ctx.db.orm
      .update(idempotencyKeys)
      .set({ lease: 'the-other-request', leaseUntil: Date.now() + 60_000 })
      .where(and(eq(idempotencyKeys.userId, hal.id), eq(idempotencyKeys.key, key)))
    held.finish()
    const answer = await held.response
    expect(answer.status).toBe(409)
    expect((await json(answer)).code).toBe('idempotency_key_in_use')
    expect(await stored(hal.id)).toEqual(before) // no row, and its blob removed
  })

  test('concurrent repeats with one key store exactly one file, whatever the interleaving; every client ends with it', async () => {
    const ivy = await server.user()
    let runs = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(25), { minLength: 2, maxLength: 5 }),
        fc.option(fc.nat(4), { nil: undefined }),
        async (delays, otherBody) => {
          runs++
          const key = newKey()
          const bytes = pdfNamed(`race ${key}`)
          const other = pdfNamed(`other ${key}`)
          const before = await stored(ivy.id)
          // Each client sends after its delay and, as a client should, sends again after a 409 (the key's first
          // request still runs) or a 429 (more than 4 uploads of one user at once) until it has a final answer.
          const client = async (delay: number, index: number) => {
            await Bun.sleep(delay)
            const mine = index === otherBody ? other : bytes
            for (;;) {
              const response = await upload(ivy.token, key, mine)
              if (response.status !== 409 && response.status !== 429) return { status: response.status, body: await json(response), mine }
              await Bun.sleep(10)
            }
          }
          const results = await Promise.all(delays.map(client))
          const after = await stored(ivy.id)
          expect(after.files).toBe(before.files + 1)
          expect(after.blobs).toBe(before.blobs + 1)
          const created = results.filter((result) => result.status === 201)
          expect(created.length).toBeGreaterThan(0)
          const ids = new Set(created.map((result) => result.body.data.id))
          expect(ids.size).toBe(1)
          const winner = created[0]!.mine
          for (const result of results) {
            // The body that won gets the file; the other one is a different request: 422.
            expect(result.status).toBe(result.mine === winner ? 201 : 422)
          }
        },
      ),
      { numRuns: 12 },
    )
    expect(runs).toBe(12)
  }, 120_000)
})

describe('Idempotency-Key on the other writes', () => {
  test('PUT metadata: a repeat is the kept answer (updatedAt does not move again); another body is a 422', async () => {
    const jo = await server.user()
    const file = (await json(await upload(jo.token, undefined, pdfNamed('meta')))).data
    const key = newKey()
    const put = (body: unknown) =>
      server.call('PUT', `/api/files/${file.id}`, {
        token: jo.token,
        body: JSON.stringify(body),
        headers: keyed(key, { 'content-type': 'application/json' }),
      })
    const first = await put({ title: 'T1', allowDownload: false })
    expect(first.status).toBe(200)
    const answer = await json(first)
    expect(answer.data.title).toBe('T1')
    expect(answer.data.allowDownload).toBe(false)
    await Bun.sleep(5)
    // Keys in another order: the same request.
    const again = await put({ allowDownload: false, title: 'T1' })
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await json(again)).toEqual(answer)
    const read = await json(await server.call('GET', `/api/files/${file.id}`, { token: jo.token }))
    expect(read.data.updatedAt).toBe(answer.data.updatedAt)
    expect((await put({ title: 'T2' })).status).toBe(422)
  })

  test('PUT replacement: a repeat keeps one previous version, not two', async () => {
    const kim = await server.user()
    const file = (await json(await upload(kim.token, undefined, pdfNamed('v1')))).data
    const key = newKey()
    const replacement = pdfNamed('v2')
    const replace = () =>
      server.call('PUT', `/api/files/${file.id}`, { token: kim.token, body: form({ bytes: replacement }), headers: keyed(key) })
    const first = await replace()
    expect(first.status).toBe(200)
    const blobsBefore = (await stored(kim.id)).blobs
    const again = await replace()
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await json(again)).toEqual(await json(first))
    const versions = await json(await server.call('GET', `/api/files/${file.id}/versions`, { token: kim.token }))
    expect(versions.data).toHaveLength(2)
    expect((await stored(kim.id)).blobs).toBe(blobsBefore)
  })

  test('DELETE: a repeat gets the kept 200, not a 404', async () => {
    const lou = await server.user()
    const file = (await json(await upload(lou.token, undefined, pdfNamed('gone')))).data
    const key = newKey()
    const remove = () => server.call('DELETE', `/api/files/${file.id}`, { token: lou.token, headers: keyed(key) })
    const first = await remove()
    expect(first.status).toBe(200)
    const again = await remove()
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await json(again)).toEqual({ success: true, data: { id: file.id } })
    // A key whose request was refused (404) keeps nothing: here a new key on the deleted file.
    expect((await server.call('DELETE', `/api/files/${file.id}`, { token: lou.token, headers: keyed(newKey()) })).status).toBe(404)
  })

  test('restore and delete of a version: repeats are the kept answers', async () => {
    const max = await server.user()
    const file = (await json(await upload(max.token, undefined, pdfNamed('r1')))).data
    await server.call('PUT', `/api/files/${file.id}`, { token: max.token, body: form({ bytes: pdfNamed('r2') }) })
    await server.call('PUT', `/api/files/${file.id}`, { token: max.token, body: form({ bytes: pdfNamed('r3') }) })
    const versions = (await json(await server.call('GET', `/api/files/${file.id}/versions`, { token: max.token }))).data
    const [, middle, oldest] = versions
    const restoreKey = newKey()
    const restore = () =>
      server.call('POST', `/api/files/${file.id}/versions/${oldest.id}/restore`, { token: max.token, headers: keyed(restoreKey) })
    const restored = await restore()
    expect(restored.status).toBe(200)
    const restoredFile = await json(restored)
    expect(restoredFile.data.sha256).toBe(oldest.sha256)
    const restoredAgain = await restore()
    expect(restoredAgain.headers.get('idempotent-replayed')).toBe('true')
    expect(await json(restoredAgain)).toEqual(restoredFile)

    const deleteKey = newKey()
    const removeVersion = () =>
      server.call('DELETE', `/api/files/${file.id}/versions/${middle.id}`, { token: max.token, headers: keyed(deleteKey) })
    expect((await removeVersion()).status).toBe(200)
    const removedAgain = await removeVersion()
    expect(removedAgain.status).toBe(200)
    expect(removedAgain.headers.get('idempotent-replayed')).toBe('true')
  })

  test('links and webhooks: a repeated create makes one, with the same answer (a webhook’s one secret)', async () => {
    const ned = await server.user()
    const file = (await json(await upload(ned.token, undefined, pdfNamed('linked')))).data
    const key = newKey()
    const createLink = () =>
      server.call('POST', `/api/files/${file.id}/links`, {
        token: ned.token,
        body: JSON.stringify({ label: 'board', maxViews: 5 }),
        headers: keyed(key, { 'content-type': 'application/json' }),
      })
    const link = await createLink()
    expect(link.status).toBe(201)
    const linkAgain = await createLink()
    expect(linkAgain.status).toBe(201)
    expect(linkAgain.headers.get('idempotent-replayed')).toBe('true')
    expect(await json(linkAgain)).toEqual(await json(link))
    const links = await json(await server.call('GET', `/api/files/${file.id}/links`, { token: ned.token }))
    expect(links.data).toHaveLength(2) // the default link and this one

    const hookKey = newKey()
    const createHook = () =>
      server.call('POST', '/api/webhooks', {
        token: ned.token,
        body: JSON.stringify({ url: 'https://hooks.example.com/pdf', events: ['file.uploaded'] }),
        headers: keyed(hookKey, { 'content-type': 'application/json' }),
      })
    const hook = await json(await createHook())
    const hookAgain = await createHook()
    expect(hookAgain.headers.get('idempotent-replayed')).toBe('true')
    expect((await json(hookAgain)).data.secret).toBe(hook.data.secret)
    expect((await json(await server.call('GET', '/api/webhooks', { token: ned.token }))).data).toHaveLength(1)
  })

  test('the OpenAPI document names the header and the 409 and 422 on the routes that honour it', async () => {
    const doc = await json(await server.call('GET', '/api/openapi.json'))
    const honoured = [
      ['post', '/api/files/upload'],
      ['put', '/api/files/{id}'],
      ['delete', '/api/files/{id}'],
      ['post', '/api/files/{id}/versions/{versionId}/restore'],
      ['delete', '/api/files/{id}/versions/{versionId}'],
      ['post', '/api/files/{id}/links'],
      ['delete', '/api/links/{linkId}'],
      ['post', '/api/webhooks'],
      ['delete', '/api/webhooks/{id}'],
      ['post', '/api/requests'],
      ['delete', '/api/requests/{id}'],
      ['post', '/u/{slug}/files'],
    ]
    for (const [method, path] of honoured) {
      const operation = doc.paths[path!][method!]
      expect(operation.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`)).toContain('header idempotency-key')
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['409', '422']))
    }
  })
})

describe('expired keys', () => {
  test('are pruned after PDFSHARE_IDEMPOTENCY_TTL: the key is then new again', async () => {
    const oz = await server.user()
    const key = newKey()
    expect(
      (await server.callInProcess('POST', UPLOAD, { token: oz.token, body: form({ bytes: pdfNamed('old') }), headers: keyed(key) })).status,
    ).toBe(201)
    const row = await claimOf(oz.id, key)
    const kept = () =>
      server.ctx.db.orm
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, oz.id), eq(idempotencyKeys.key, key)))
    expect(row.expiresAt - row.createdAt).toBe(server.config.idempotencyTtl * 1000)
    const realNow = server.ctx.now
    try {
      server.ctx.now = () => row.expiresAt - 1000
      await pruneIdempotencyKeys(server.ctx)
      expect(await kept()).toHaveLength(1) // within the TTL
      server.ctx.now = () => row.expiresAt + 1000
      expect(await pruneIdempotencyKeys(server.ctx)).toBeGreaterThanOrEqual(1)
      expect(await kept()).toHaveLength(0)
    } finally {
      server.ctx.now = realNow
    }
    const fresh = await upload(oz.token, key, pdfNamed('new body, old key'))
    expect(fresh.status).toBe(201)
    expect(fresh.headers.get('idempotent-replayed')).toBeNull()
  })
})
