import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { listUsers, removeUser, setQuota } from '../../src/core/accounts/users/users'
import type { FileDto, VersionDto } from '../../src/routes/files/model'
import { form, json, startTestApp, type TestServer } from '../support/harness'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { makePdf, pdfOfSize } from '../../scripts/support/pdf'

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
const pdfSaying = (text: string) => makePdf({ text: () => text })

type User = { token: string }

function client(server: TestServer) {
  const versionsPath = (fileId: string) => `/api/files/${fileId}/versions`
  return {
    replace: (user: User, fileId: string, bytes: Uint8Array, fields: Record<string, string> = {}) =>
      server.call('PUT', `/api/files/${fileId}`, { token: user.token, body: form({ bytes: bytes as Uint8Array<ArrayBuffer> }, fields) }),
    listResponse: (user: User, fileId: string) => server.call('GET', versionsPath(fileId), { token: user.token }),
    list: async (user: User, fileId: string): Promise<VersionDto[]> => {
      const response = await server.call('GET', versionsPath(fileId), { token: user.token })
      expect(response.status).toBe(200)
      return (await json(response)).data
    },
    content: (user: User, fileId: string, versionId: string, headers: Record<string, string> = {}) =>
      server.call('GET', `${versionsPath(fileId)}/${versionId}/content`, { token: user.token, headers }),
    restore: (user: User, fileId: string, versionId: string) =>
      server.call('POST', `${versionsPath(fileId)}/${versionId}/restore`, { token: user.token }),
    remove: (user: User, fileId: string, versionId: string) =>
      server.call('DELETE', `${versionsPath(fileId)}/${versionId}`, { token: user.token }),
    usedBytes: async (user: User): Promise<number> =>
      (await json(await server.call('GET', '/api/me', { token: user.token }))).data.usage.bytes,
    blobKeys: async () => new Set(await Array.fromAsync(server.ctx.blobs.keys())),
    blobKeyOf: async (fileId: string) =>
      (await server.ctx.db.orm.all<{ blob_key: string }>(sql`SELECT blob_key FROM files WHERE id = ${fileId}`))[0]?.blob_key ?? '',
  }
}

/** Uploads `first` and replaces it with each of `then`, in order; returns the file as the last replacement left it. */
async function fileWithHistory(server: TestServer, user: User, first: Uint8Array, then: Uint8Array[]): Promise<FileDto> {
  const file = await uploadPdf(server, user, first, { filename: 'v0.pdf' })
  let last = file
  for (const [i, bytes] of then.entries()) {
    const response = await client(server).replace(user, file.id, bytes, { filename: `v${i + 1}.pdf` })
    expect(response.status).toBe(200)
    last = (await json(response)).data
  }
  return last
}

describe('versions kept on replacement (PDFSHARE_MAX_VERSIONS default 5)', async () => {
  const server = await startTestApp({ PDFSHARE_MAX_UPLOADS_PER_USER: '16' })
  const api = client(server)
  const alice = await server.user('alice')
  const bob = await server.user('bob')
  const pdfs = [0, 1, 2, 3].map((i) => pdfSaying(`version ${i}`))

  test('replaced 3 times: the current PDF first, then the 3 previous ones newest first, each downloading its own bytes', async () => {
    const file = await fileWithHistory(server, alice, pdfs[0]!, pdfs.slice(1))
    const versions = await api.list(alice, file.id)
    expect(versions.map((v) => [v.current, v.filename, v.sha256, v.fileSize])).toEqual(
      [3, 2, 1, 0].map((i) => [i === 3, `v${i}.pdf`, sha256(pdfs[i]!), pdfs[i]!.length]),
    )
    expect(versions[0]!.replacedAt).toBeNull()
    for (const previous of versions.slice(1))
      expect(Date.parse(previous.replacedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(previous.uploadedAt))
    expect(new Set(versions.map((v) => v.id)).size).toBe(4)
    for (const [n, version] of versions.entries()) {
      const response = await api.content(alice, file.id, version.id)
      expect(response.status).toBe(200)
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdfs[3 - n]!)
      expect(response.headers.get('content-disposition')).toStartWith(`attachment; filename="v${3 - n}.pdf"`)
    }
    const stored = pdfs.reduce((sum, pdf) => sum + pdf.length, 0)
    expect(await api.usedBytes(alice)).toBe(stored)
    // `pdfshare user list` counts the same: one file, its bytes with the versions'.
    expect((await listUsers(server.ctx)).find((user) => user.name === 'alice')?.usage).toEqual({ files: 1, bytes: stored })
  })

  test('a version downloads with Range and its own ETag; an unknown version id → 404', async () => {
    const file = await fileWithHistory(server, alice, pdfs[0]!, [pdfs[1]!])
    const [current, previous] = await api.list(alice, file.id)
    const ranged = await api.content(alice, file.id, previous!.id, { range: 'bytes=0-9' })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('content-range')).toBe(`bytes 0-9/${pdfs[0]!.length}`)
    expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(pdfs[0]!.slice(0, 10))
    const whole = await api.content(alice, file.id, previous!.id)
    expect(whole.headers.get('etag')).not.toBe((await api.content(alice, file.id, current!.id)).headers.get('etag'))
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect((await api.content(alice, file.id, 'AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404)
    expect((await api.content(alice, file.id, 'not a valid id!')).status).toBe(404)
  })

  test('restore: the bytes, sha256 and share page ETag change, the id and share URL stay; the replaced PDF becomes the newest previous version', async () => {
    const file = await fileWithHistory(server, alice, pdfs[0]!, [pdfs[1]!, pdfs[2]!])
    const sharedFile = `${sharePathOf(file)}/file`
    const before = await server.call('GET', sharedFile)
    expect(before.status).toBe(200)
    expect(new Uint8Array(await before.arrayBuffer())).toEqual(pdfs[2]!)
    const [current, middle, oldest] = await api.list(alice, file.id)

    const response = await api.restore(alice, file.id, oldest!.id)
    expect(response.status).toBe(200)
    const restored: FileDto = (await json(response)).data
    expect(restored).toMatchObject({
      id: file.id,
      shareUrl: file.shareUrl,
      sha256: sha256(pdfs[0]!),
      fileSize: pdfs[0]!.length,
      filename: 'v0.pdf',
    })
    expect(Date.parse(restored.updatedAt)).toBeGreaterThan(Date.parse(file.updatedAt))

    const after = await server.call('GET', sharedFile)
    expect(after.status).toBe(200)
    expect(new Uint8Array(await after.arrayBuffer())).toEqual(pdfs[0]!)
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    expect(
      await server.call('GET', sharedFile, { headers: { 'if-none-match': before.headers.get('etag') ?? '' } }).then((r) => r.status),
    ).toBe(200)

    const versions = await api.list(alice, file.id)
    expect(versions.map((v) => [v.id, v.current])).toEqual([
      [oldest!.id, true],
      [current!.id, false],
      [middle!.id, false],
    ])
    expect(versions[0]!.replacedAt).toBeNull()
    expect(await api.usedBytes(alice)).toBeGreaterThan(0)
    // Restoring the current version changes nothing; a version that is no longer kept is 404.
    const again = await api.restore(alice, file.id, oldest!.id)
    expect(again.status).toBe(200)
    expect((await json(again)).data).toEqual(restored)
    expect((await api.restore(alice, file.id, 'AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404)
  })

  test('deleting a previous version frees its bytes and its blob; the current one → 409 conflict; twice → 404', async () => {
    const file = await fileWithHistory(server, alice, pdfs[0]!, [pdfs[1]!])
    const [current, previous] = await api.list(alice, file.id)
    const usedBefore = await api.usedBytes(alice)
    const keysBefore = await api.blobKeys()

    const refused = await api.remove(alice, file.id, current!.id)
    expect(refused.status).toBe(409)
    expect(await json(refused)).toMatchObject({ success: false, code: 'conflict' })

    const response = await api.remove(alice, file.id, previous!.id)
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({ success: true, data: { id: previous!.id } })
    expect(await api.usedBytes(alice)).toBe(usedBefore - pdfs[0]!.length)
    expect((await api.blobKeys()).size).toBe(keysBefore.size - 1)
    expect((await api.list(alice, file.id)).map((v) => v.id)).toEqual([current!.id])
    expect((await api.content(alice, file.id, previous!.id)).status).toBe(404)
    expect((await api.remove(alice, file.id, previous!.id)).status).toBe(404)
  })

  test("another user's file or version answers 404 on every versions route, like a missing one", async () => {
    const file = await fileWithHistory(server, alice, pdfs[0]!, [pdfs[1]!])
    const [current, previous] = await api.list(alice, file.id)
    const bobsFile = await uploadPdf(server, bob, pdfs[2]!)
    const missing = await api.listResponse(bob, 'AAAAAAAAAAAAAAAAAAAAAA')
    expect(missing.status).toBe(404)
    const notFound = await json(missing)
    expect(await json(await api.listResponse(bob, file.id))).toEqual(notFound)
    for (const version of [current!, previous!]) {
      expect((await api.content(bob, file.id, version.id)).status).toBe(404)
      expect((await api.restore(bob, file.id, version.id)).status).toBe(404)
      expect((await api.remove(bob, file.id, version.id)).status).toBe(404)
      // Alice's version ids under Bob's own file are not his either.
      expect((await api.content(bob, bobsFile.id, version.id)).status).toBe(404)
      expect((await api.restore(bob, bobsFile.id, version.id)).status).toBe(404)
      expect((await api.remove(bob, bobsFile.id, version.id)).status).toBe(404)
    }
    expect((await api.list(alice, file.id)).map((v) => v.id)).toEqual([current!.id, previous!.id])
    expect((await api.content(alice, file.id, previous!.id)).status).toBe(200)
  })

  test('deleting the file removes its current PDF and every version from disk', async () => {
    const keysBefore = await api.blobKeys()
    const file = await fileWithHistory(server, alice, pdfs[0]!, pdfs.slice(1))
    expect((await api.blobKeys()).size).toBe(keysBefore.size + 4)
    expect((await server.call('DELETE', `/api/files/${file.id}`, { token: alice.token })).status).toBe(200)
    expect(await api.blobKeys()).toEqual(keysBefore)
    expect(await server.ctx.db.orm.all(sql`SELECT id FROM file_versions WHERE file_id = ${file.id}`)).toEqual([])
  })

  test('removing a user with their files removes the version blobs too', async () => {
    const carol = await server.user('carol')
    const keysBefore = await api.blobKeys()
    await fileWithHistory(server, carol, pdfs[0]!, [pdfs[1]!, pdfs[2]!])
    expect((await api.blobKeys()).size).toBe(keysBefore.size + 3)
    expect(await removeUser(server.ctx, { name: 'carol', deleteFiles: true })).toEqual({
      id: carol.id,
      removedFiles: 1,
      deletedTeams: [],
      promotedOwners: [],
    })
    expect(await api.blobKeys()).toEqual(keysBefore)
  })

  test('concurrent replacements and restores: every request succeeds or is refused cleanly, and every blob on disk is referenced once', async () => {
    const file = await fileWithHistory(server, alice, pdfs[0]!, [pdfs[1]!, pdfs[2]!])
    const [, a, b] = await api.list(alice, file.id)
    const requests = [
      ...Array.from({ length: 5 }, (_, i) => api.replace(alice, file.id, pdfSaying(`concurrent ${i}`))),
      api.restore(alice, file.id, a!.id),
      api.restore(alice, file.id, b!.id),
    ]
    const statuses = (await Promise.all(requests)).map((r) => r.status)
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200])
    for (const status of statuses.slice(5)) expect([200, 404]).toContain(status) // a restore may find its version pruned
    const referenced = await server.ctx.db.orm.all<{ blob_key: string }>(
      sql`SELECT blob_key FROM files UNION ALL SELECT blob_key FROM file_versions`,
    )
    expect([...(await api.blobKeys())].sort()).toEqual(referenced.map((r) => r.blob_key).sort())
    const versions = await api.list(alice, file.id)
    expect(versions.length).toBeLessThanOrEqual(6)
    expect(new Set(versions.map((v) => v.sha256)).size).toBe(versions.length)
  })
})

describe('the limit', () => {
  test('PDFSHARE_MAX_VERSIONS=2: a replacement prunes the oldest beyond 2 and removes its blob', async () => {
    const server = await startTestApp({ PDFSHARE_MAX_VERSIONS: '2' })
    const api = client(server)
    const dave = await server.user('dave')
    const pdfs = [0, 1, 2, 3].map((i) => pdfSaying(`limited ${i}`))
    const file = await fileWithHistory(server, dave, pdfs[0]!, [pdfs[1]!, pdfs[2]!])
    const [, , oldest] = await api.list(dave, file.id)
    const oldestKey = (
      await server.ctx.db.orm.all<{ blob_key: string }>(sql`SELECT blob_key FROM file_versions WHERE id = ${oldest!.id}`)
    )[0]?.blob_key
    expect((await api.blobKeys()).has(oldestKey ?? '')).toBe(true)

    expect((await api.replace(dave, file.id, pdfs[3]!)).status).toBe(200)
    const versions = await api.list(dave, file.id)
    expect(versions.map((v) => v.sha256)).toEqual([3, 2, 1].map((i) => sha256(pdfs[i]!)))
    expect((await api.blobKeys()).has(oldestKey ?? '')).toBe(false)
    expect((await api.blobKeys()).size).toBe(3)
    expect(await api.usedBytes(dave)).toBe(pdfs[1]!.length + pdfs[2]!.length + pdfs[3]!.length)
  })

  test('PDFSHARE_MAX_VERSIONS=0 keeps none: only the current PDF is listed, the replaced blob is removed', async () => {
    const server = await startTestApp({ PDFSHARE_MAX_VERSIONS: '0' })
    const api = client(server)
    const erin = await server.user('erin')
    const file = await uploadPdf(server, erin, pdfSaying('first'))
    const firstKey = await api.blobKeyOf(file.id)
    expect((await api.replace(erin, file.id, pdfSaying('second'))).status).toBe(200)
    expect((await api.replace(erin, file.id, pdfSaying('third'))).status).toBe(200)
    const versions = await api.list(erin, file.id)
    expect(versions.map((v) => [v.current, v.sha256])).toEqual([[true, sha256(pdfSaying('third'))]])
    expect([...(await api.blobKeys())]).toEqual([await api.blobKeyOf(file.id)])
    expect(firstKey).not.toBe(await api.blobKeyOf(file.id))
    expect(await api.usedBytes(erin)).toBe(pdfSaying('third').length)
  })
})

describe('the quota counts versions', () => {
  test('a replacement refused because its kept versions would pass the storage limit says so; deleting a version makes room', async () => {
    const server = await startTestApp()
    const api = client(server)
    const frank = await server.user('frank')
    const file = await uploadPdf(server, frank, pdfOfSize(300 * 1024))
    expect((await api.replace(frank, file.id, pdfOfSize(300 * 1024 + 1))).status).toBe(200)
    expect(await api.usedBytes(frank)).toBe(600 * 1024 + 1)
    await setQuota(server.ctx, { name: 'frank', maxBytes: 800 * 1024 })

    const refused = await api.replace(frank, file.id, pdfOfSize(300 * 1024 + 2))
    expect(refused.status).toBe(403)
    const body = await json(refused)
    expect(body.code).toBe('quota_exceeded')
    expect(body.error).toStartWith('Storage quota exceeded: 600 KB of 800 KB used, 300 KB of it by previous versions of files')
    expect(body.error).toContain('DELETE /api/files/ID/versions/VERSION_ID')
    expect((await api.list(frank, file.id)).length).toBe(2)
    expect(await api.usedBytes(frank)).toBe(600 * 1024 + 1)

    const [, previous] = await api.list(frank, file.id)
    expect((await api.remove(frank, file.id, previous!.id)).status).toBe(200)
    expect(await api.usedBytes(frank)).toBe(300 * 1024 + 1)
    expect((await api.replace(frank, file.id, pdfOfSize(300 * 1024 + 2))).status).toBe(200)
    expect(await api.usedBytes(frank)).toBe(600 * 1024 + 3)
  })

  test('a replacement that prunes a version only grows usage by its size less the pruned bytes', async () => {
    const server = await startTestApp({ PDFSHARE_MAX_VERSIONS: '1' })
    const api = client(server)
    const gina = await server.user('gina')
    const file = await uploadPdf(server, gina, pdfOfSize(200 * 1024))
    expect((await api.replace(gina, file.id, pdfOfSize(200 * 1024))).status).toBe(200)
    await setQuota(server.ctx, { name: 'gina', maxBytes: 400 * 1024 })
    // 400 KB used of 400 KB: a same-size replacement prunes the 200 KB version, so it grows nothing.
    expect((await api.replace(gina, file.id, pdfOfSize(200 * 1024))).status).toBe(200)
    // One byte more would pass the limit, whether the early check (Content-Length) or the commit refuses it.
    const refused = await api.replace(gina, file.id, pdfOfSize(200 * 1024 + 1))
    expect(refused.status).toBe(403)
    expect((await json(refused)).error).toStartWith('Storage quota exceeded: 400 KB of 400 KB used')
    expect(await api.usedBytes(gina)).toBe(400 * 1024)
  })
})
