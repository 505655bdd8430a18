import { expect, test } from 'bun:test'
import { expectTypeOf } from 'expect-type'
import type { FileDto } from '../../src/routes/files/model'
import { toFileDto } from '../../src/core/files/presenter'

// These assertions are checked by `bun run typecheck` (tsc); the runtime test below keeps bun test honest too.
type InterfaceFile = {
  id: string
  filename: string
  title: string
  desc: string
  description: string
  fileSize: number
  contentType: 'application/pdf'
  allowDownload: boolean
  searchEngineVisible: boolean
  views: number
  shareUrl: string
  createdAt: string
  updatedAt: string
  sha256: string
  source: { requestId: string; name: string | null; email: string | null; note: string | null } | null
}

test('the File response type is exactly the interface File (plus sha256 and a request file’s source), with no nullable fields of the interface', () => {
  expectTypeOf<FileDto>().toEqualTypeOf<InterfaceFile>()
  expectTypeOf<FileDto['title']>().not.toBeNullable()
  expectTypeOf<FileDto['desc']>().not.toBeNullable()
  expectTypeOf(toFileDto).returns.toEqualTypeOf<FileDto>()
  const dto = toFileDto(
    {
      seq: 1,
      id: 'i',
      ownerId: 'o',
      slug: 's',
      blobKey: 'b',
      filename: 'f.pdf',
      title: '',
      description: 'd',
      size: 3,
      sha256: 'h',
      allowDownload: true,
      searchEngineVisible: false,
      views: 0,
      createdAt: 0,
      updatedAt: 1,
      uploadedAt: 0,
      versionId: 'v',
      sourceRequestId: null,
      sourceName: null,
      sourceEmail: null,
      sourceNote: null,
    },
    'https://x.test',
  )
  expect(dto.desc).toBe(dto.description)
  expect(dto.shareUrl).toBe('https://x.test/s/s')
  expect(dto.updatedAt).toBe('1970-01-01T00:00:00.001Z')
  expect(dto.source).toBeNull()
})
