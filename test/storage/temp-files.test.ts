import { describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { createLocalTempFiles } from '../../src/storage/temp-files'

const dir = mkdtempSync(join(tmpdir(), 'pdfshare-temp-files-'))
const tempFiles = createLocalTempFiles(dir)
let next = 0

describe('the double-buffered temp file', () => {
  test('any split into chunks is stored byte for byte, also when the caller reuses its chunk', async () => {
    // The bytes every run writes, in order (made once: a per-byte loop in each run took minutes on a loaded machine).
    const pattern = new Uint8Array(12 * 700_000)
    for (let i = 0, value = 0; i < pattern.length; i++) pattern[i] = value = (value * 31 + 7) & 0xff
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 700_000 }), { minLength: 1, maxLength: 12 }), async (sizes) => {
        const temp = await tempFiles.create(`p-${next++}.part`)
        const reused = new Uint8Array(700_000)
        let written = 0
        for (const size of sizes) {
          const chunk = reused.subarray(0, size)
          chunk.set(pattern.subarray(written, written + size))
          await temp.write(chunk)
          written += size
          reused.fill(0) // the writer must have copied what it has not written yet
        }
        await temp.sync()
        await temp.close()
        const stored = readFileSync(temp.path)
        expect(stored.length).toBe(written)
        expect(stored.equals(pattern.subarray(0, written))).toBe(true)
        await temp.discard()
        expect(existsSync(temp.path)).toBe(false)
      }),
      { numRuns: 25 },
    )
  })

  test('a write that fails in the background fails the next write or sync', async () => {
    const temp = await tempFiles.create(`f-${next++}.part`)
    await temp.close() // the handle is gone: the next buffer's write cannot succeed
    const attempt = (async () => {
      for (let i = 0; i < 4; i++) await temp.write(new Uint8Array(1024 * 1024))
      await temp.sync()
    })()
    await expect(attempt).rejects.toThrow()
    await temp.discard()
    expect(existsSync(temp.path)).toBe(false)
  })
})
