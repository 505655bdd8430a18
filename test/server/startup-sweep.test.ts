import { expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bearer } from '../support/bearer'
import { form } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { run, startServer } from '../../scripts/support/process'
import { uploadPdfTo } from '../support/uploads'

test('at start the server removes leftover temp files, moves unreferenced blobs aside (never deletes them), and keeps every committed file', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-sweep-'))
  try {
    await run(['user', 'add', 'alice', '--data', dataDir])
    const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
    const pdf = makePdf()
    let server = await startServer(['--data', dataDir])
    const file = await uploadPdfTo(server.url, token, pdf)
    await server.stop()

    // What a kill -9 can leave behind: a half-written upload, and a blob renamed into place whose row never committed.
    writeFileSync(join(dataDir, 'tmp', 'upload-interrupted.part'), '%PDF-1.7 half')
    mkdirSync(join(dataDir, 'blobs', 'zz'), { recursive: true })
    const orphan = join(dataDir, 'blobs', 'zz', 'zzOrphanBlobKey000000.pdf')
    writeFileSync(orphan, '%PDF-1.7 orphan')
    // And the local copies of a bucket's PDFs an instance kept (storage/local-copies.ts).
    mkdirSync(join(dataDir, 'copies', '4242-killed'), { recursive: true })
    writeFileSync(join(dataDir, 'copies', '4242-killed', 'someBlobKey00000.pdf'), '%PDF-1.7 copy')

    server = await startServer(['--data', dataDir])
    try {
      expect(server.stderr()).toContain('removed 1 interrupted upload(s)')
      expect(server.stderr()).toContain(`moved 1 unreferenced blob(s) to ${join(dataDir, 'orphans')}`)
      expect(existsSync(join(dataDir, 'tmp', 'upload-interrupted.part'))).toBe(false)
      expect(readdirSync(join(dataDir, 'copies'))).toEqual([])
      expect(existsSync(orphan)).toBe(false)
      expect(readFileSync(join(dataDir, 'orphans', 'zzOrphanBlobKey000000.pdf'), 'utf8')).toBe('%PDF-1.7 orphan')
      const content = await fetch(`${server.url}/api/files/${file.id}/content`, { headers: bearer(token) })
      expect(new Uint8Array(await content.arrayBuffer())).toEqual(pdf)
    } finally {
      await server.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
})

test('the start-up sweep counts kept versions as referenced: their blobs stay in place and keep downloading', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-sweep-'))
  try {
    await run(['user', 'add', 'alice', '--data', dataDir])
    const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
    const first = makePdf({ text: () => 'first' })
    let server = await startServer(['--data', dataDir])
    const file = await uploadPdfTo(server.url, token, first)
    const replaced = await fetch(`${server.url}/api/files/${file.id}`, {
      method: 'PUT',
      headers: bearer(token),
      body: form({ bytes: makePdf({ text: () => 'second' }) }),
    })
    expect(replaced.status).toBe(200)
    const [, previous] = (await (await fetch(`${server.url}/api/files/${file.id}/versions`, { headers: bearer(token) })).json()).data
    await server.stop()
    mkdirSync(join(dataDir, 'blobs', 'zz'), { recursive: true })
    writeFileSync(join(dataDir, 'blobs', 'zz', 'zzOrphanBlobKey000001.pdf'), '%PDF-1.7 orphan')

    server = await startServer(['--data', dataDir])
    try {
      expect(server.stderr()).toContain(`moved 1 unreferenced blob(s) to ${join(dataDir, 'orphans')}`)
      expect(readdirSync(join(dataDir, 'orphans'))).toEqual(['zzOrphanBlobKey000001.pdf'])
      const content = await fetch(`${server.url}/api/files/${file.id}/versions/${previous.id}/content`, { headers: bearer(token) })
      expect(content.status).toBe(200)
      expect(new Uint8Array(await content.arrayBuffer())).toEqual(first)
    } finally {
      await server.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
})
