import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLocalCopies } from '../../src/storage/local-copies'

// Local copies of blobs kept elsewhere (storage/local-copies.ts), with a download that writes known bytes.
const root = mkdtempSync(join(tmpdir(), 'pdfshare-copies-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function copiesWith(maxBytes: number, holdMs = 0) {
  let clock = 1_000
  const downloads: string[] = []
  const copies = createLocalCopies({
    folder: root,
    maxBytes,
    holdMs,
    now: () => clock,
    download: async (key, path) => {
      downloads.push(key)
      await Bun.sleep(5)
      writeFileSync(path, `bytes of ${key}`.padEnd(100, '.'))
    },
  })
  return { copies, downloads, tick: (ms: number) => (clock += ms) }
}

test('a copy is downloaded once (also for requests at once) and read from the disk after', async () => {
  const { copies, downloads } = copiesWith(10_000)
  const [a, b] = await Promise.all([copies.copyOf('key-a'), copies.copyOf('key-a')])
  expect(a.path).toBe(b.path)
  expect(a.size).toBe(100)
  expect(readFileSync(a.path, 'utf8')).toStartWith('bytes of key-a')
  await copies.copyOf('key-a')
  expect(downloads).toEqual(['key-a'])
  expect(copies.has('key-a')).toBe(true)
  copies.close()
  expect(existsSync(a.path)).toBe(false)
})

test('beyond the size the least recently used copy goes, never one held or used within the hold time', async () => {
  const { copies, downloads, tick } = copiesWith(250, 1_000)
  await copies.copyOf('a')
  tick(2_000)
  const held = await copies.copyOf('b', { hold: true })
  tick(2_000)
  await copies.copyOf('a') // a is now more recent than b
  tick(2_000)
  await copies.copyOf('c') // 300 bytes: one must go; b is least recent but held, so a goes
  expect([copies.has('a'), copies.has('b'), copies.has('c')]).toEqual([false, true, true])
  held.release()
  tick(2_000)
  await copies.copyOf('d') // b, no longer held, goes now
  expect([copies.has('b'), copies.has('c'), copies.has('d')]).toEqual([false, true, true])
  // c was used 2 s ago, beyond the hold time; within it nothing is taken away, even over the size.
  const { copies: busy } = copiesWith(150, 60_000)
  await busy.copyOf('x')
  await busy.copyOf('y')
  expect([busy.has('x'), busy.has('y')]).toEqual([true, true])
  expect(downloads).toEqual(['a', 'b', 'c', 'd'])
  copies.close()
  busy.close()
  expect(readdirSync(root)).toEqual([])
})

test('a failed download keeps nothing, and the next request tries again', async () => {
  let fail = true
  const copies = createLocalCopies({
    folder: root,
    maxBytes: 1_000,
    download: async (_key, path) => {
      writeFileSync(path, 'half')
      if (fail) throw new Error('the bucket went away')
      writeFileSync(path, 'whole')
    },
  })
  await expect(copies.copyOf('k')).rejects.toThrow('the bucket went away')
  expect(copies.has('k')).toBe(false)
  fail = false
  expect(readFileSync((await copies.copyOf('k')).path, 'utf8')).toBe('whole')
  const folder = readdirSync(root)[0]!
  expect(readdirSync(join(root, folder))).toEqual(['k.pdf'])
  // A copy removed behind its back (another instance's start-up took the folder for a leftover) is made again.
  rmSync(join(root, folder), { recursive: true })
  expect(readFileSync((await copies.copyOf('k')).path, 'utf8')).toBe('whole')
  copies.close()
})
