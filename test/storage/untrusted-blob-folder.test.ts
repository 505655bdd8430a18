import { afterAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openUntrustedBlobFolder, RefusedBlob } from '../../src/storage/untrusted-blob-folder'

const root = mkdtempSync(join(tmpdir(), 'pdfshare-untrusted-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const readAll = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer())

test('a backup folder is read through regular files only: a linked blob or a linked folder is refused, never followed', async () => {
  const blobs = join(root, 'backup', 'blobs')
  mkdirSync(join(blobs, 're'), { recursive: true })
  writeFileSync(join(blobs, 're', 'regularKey000001.pdf'), '%PDF-1.7 regular')
  const outside = join(root, 'root-only.pdf')
  writeFileSync(outside, '%PDF-1.7 not yours')
  symlinkSync(outside, join(blobs, 're', 'regularKey000002.pdf'))
  mkdirSync(join(root, 'elsewhere'))
  writeFileSync(join(root, 'elsewhere', 'liLinkedFolder01.pdf'), '%PDF-1.7 not yours')
  symlinkSync(join(root, 'elsewhere'), join(blobs, 'li'))
  const folder = openUntrustedBlobFolder(blobs)

  expect(await folder.stat('regularKey000001')).toEqual({ size: 16, modifiedAt: expect.any(Number) })
  expect(new TextDecoder().decode(await readAll(folder.read('regularKey000001')))).toBe('%PDF-1.7 regular')
  expect(await folder.stat('missingKey000001')).toBeUndefined()

  const refusal = (key: string) =>
    folder.stat(key).then(
      () => undefined,
      (error: unknown) => error,
    )
  const linkedFile = await refusal('regularKey000002')
  expect(linkedFile).toBeInstanceOf(RefusedBlob)
  expect((linkedFile as RefusedBlob).reason).toBe('is not a regular file (a symbolic link)')
  const linkedFolder = await refusal('liLinkedFolder01')
  expect((linkedFolder as RefusedBlob).reason).toBe('is inside blobs/li, which is not a folder (a symbolic link)')
  await expect(readAll(folder.read('regularKey000002'))).rejects.toBeInstanceOf(RefusedBlob)
  await expect(folder.localFile('liLinkedFolder01')).rejects.toBeInstanceOf(RefusedBlob)
  await expect(folder.put('regularKey000003', { stream: new Response('x').body! })).rejects.toThrow('never written')
})
