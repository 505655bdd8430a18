import { expect, test } from 'bun:test'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import { PLACEHOLDER_PREVIEW } from '../../src/core/previews/preview-service'
import { join } from 'node:path'
import { makePdf } from '../../scripts/support/pdf'
import { sharedCeph } from '../../scripts/support/ceph'
import { eventually } from '../support/eventually'
import { form, startTestApp } from '../support/harness'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'
import { s3SettingsOf } from '../support/s3'

// The whole app with PDFSHARE_STORAGE=s3 on a real Ceph object gateway, through HTTP: the PDFs live in the
// bucket, not in the data dir.
const gateway = await sharedCeph()
const bucket = `pdfshare-app-${process.pid}-${Math.random().toString(36).slice(2, 8)}`
await gateway.createBucket(bucket)
const server = await startTestApp({
  PDFSHARE_STORAGE: 's3',
  ...s3SettingsOf(gateway, bucket),
})
const owner = await server.user('owner')
const bucketKeys = () => Array.fromAsync(server.ctx.blobs.keys())
const visit = (path: string, headers: Record<string, string> = {}) =>
  server.call('GET', path, { headers: { 'user-agent': FIREFOX, ...headers } })

test('upload, share page bytes with Range, preview, replace and delete, with the PDFs in the bucket', async () => {
  const original = makePdf({ pages: 3, text: (page) => `original ${page}` })
  const file = await uploadPdf(server, owner, { bytes: original, name: 'Report.pdf' })
  const path = sharePathOf(file)
  expect(await bucketKeys()).toHaveLength(1)
  expect(readdirSync(join(server.dataDir, 'blobs'))).toEqual([])

  const whole = await visit(`${path}/file`)
  expect(whole.status).toBe(200)
  expect(new Uint8Array(await whole.arrayBuffer())).toEqual(original)
  const part = await visit(`${path}/file`, { range: 'bytes=100-299' })
  expect(part.status).toBe(206)
  expect(part.headers.get('content-range')).toBe(`bytes 100-299/${original.length}`)
  expect(new Uint8Array(await part.arrayBuffer())).toEqual(original.slice(100, 300))

  // The preview renders from a temporary local copy, which is gone afterwards.
  const preview = await visit(`${path}/preview.png`)
  expect(preview.status).toBe(200)
  expect(preview.headers.get('content-type')).toBe('image/png')
  expect(readdirSync(join(server.dataDir, 'tmp')).filter((name) => name.endsWith('.pdf'))).toEqual([])

  const replacement = makePdf({ pages: 1, text: () => 'replacement' })
  const replaced = await server.call('PUT', `/api/files/${file.id}`, { token: owner.token, body: form({ bytes: replacement }) })
  expect(replaced.status).toBe(200)
  expect(new Uint8Array(await (await visit(`${path}/file`)).arrayBuffer())).toEqual(replacement)
  expect(await bucketKeys()).toHaveLength(2) // the previous version is kept (PDFSHARE_MAX_VERSIONS)

  expect((await server.call('DELETE', `/api/files/${file.id}`, { token: owner.token })).status).toBe(200)
  expect((await visit(`${path}/file`)).status).toBe(404)
  await eventually(async () => expect(await bucketKeys()).toEqual([]))
})

test('link-preview cards are kept in the bucket: another instance (or this one with an empty disk) serves them without rendering, and they go with the PDF', async () => {
  const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 1, text: () => 'card' }), name: 'Card.pdf' })
  const path = sharePathOf(file)
  const { files } = server.ctx.db.tables
  const { blobKey } = (await server.ctx.db.orm.select().from(files).where(eq(files.id, file.id)))[0]!
  const objects = new Bun.S3Client({
    endpoint: gateway.endpoint,
    bucket,
    region: gateway.region,
    accessKeyId: gateway.accessKeyId,
    secretAccessKey: gateway.secretAccessKey,
  })
  const card = objects.file(`previews/${blobKey}.png`)
  const first = await visit(`${path}/preview.png`)
  expect(first.status).toBe(200)
  const rendered = new Uint8Array(await first.arrayBuffer())
  expect(await card.exists()).toBe(true)
  expect(new Uint8Array(await card.arrayBuffer())).toEqual(rendered)

  // The local copy gone, as on a new instance: the card comes from the bucket, byte for byte, and is kept locally again.
  const local = server.ctx.previews.pathOf(blobKey)
  rmSync(local)
  // Another instance's card, told apart from a new render by its bytes (here: the placeholder image).
  const fromElsewhere = await Bun.file(PLACEHOLDER_PREVIEW.path).bytes()
  await card.write(fromElsewhere)
  const again = await visit(`${path}/preview.png`)
  expect(new Uint8Array(await again.arrayBuffer())).toEqual(fromElsewhere)
  expect(existsSync(local)).toBe(true)

  expect((await server.call('DELETE', `/api/files/${file.id}`, { token: owner.token })).status).toBe(200)
  await eventually(async () => expect(await card.exists()).toBe(false))
})
