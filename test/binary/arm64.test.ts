import { afterAll, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, openSync, readSync, closeSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makePdf } from '../../scripts/support/pdf'
import { ROOT, run, startServer } from '../../scripts/support/process'
import { skipWithout } from '../support/host-tools'
import { shareUrlOn } from '../support/share-paths'
import { uploadPdfTo } from '../support/uploads'

// The linux-arm64 binary (`bun run build:arm64`, which `bun run test` runs), on this x64 machine under Debian's
// qemu-user-static with Debian's arm64 C libraries, from an empty directory.
const built = join(ROOT, 'dist', 'pdfshare-linux-arm64')
const QEMU = '/usr/bin/qemu-aarch64-static'
const ARM64_LIBS = '/usr/aarch64-linux-gnu'
const skip = skipWithout([QEMU, ARM64_LIBS], 'apt-get install -y qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross')

// `qemu-aarch64-static ./binary` alone runs the server, but not the preview renderers it starts by executing
// its own file again: the kernel must know to hand arm64 executables to qemu. The binary runs in a user
// namespace of its own with a binfmt_misc of its own (Linux ≥ 6.7 gives each user namespace one), which knows
// exactly that; the machine's binfmt_misc is left alone. `F` opens qemu once, at registration.
const AARCH64_ELF =
  '\\x7f\\x45\\x4c\\x46\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\xb7\\x00:' +
  '\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff'
const IN_NAMESPACE = `set -e
mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
printf '%s' ':pdfshare-aarch64:M::${AARCH64_ELF}:${QEMU}:F' > /proc/sys/fs/binfmt_misc/register
exec "$@"`
// unshare and sh exec into the binary: the process the test signals is the server itself.
const emulated = (binary: string) => ['unshare', '--user', '--map-root-user', '--mount', 'sh', '-c', IN_NAMESPACE, 'sh', binary]
// Emulation is some 10–30 times slower: a first render (a renderer process started, PDFium's wasm compiled) takes
// longer than the default 5 s.
const env = { QEMU_LD_PREFIX: ARM64_LIBS, PDFSHARE_PREVIEW_TIMEOUT: '200', PDFSHARE_IDLE_TIMEOUT: '255' }

const dir = mkdtempSync(join(tmpdir(), 'pdfshare-arm64-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test.skipIf(skip)('dist/pdfshare-linux-arm64 is an arm64 executable (run `bun run build:arm64`)', () => {
  expect(existsSync(built)).toBe(true)
  const header = Buffer.alloc(20)
  const fd = openSync(built, 'r')
  readSync(fd, header, 0, 20, 0)
  closeSync(fd)
  expect(header.subarray(0, 4).toString('latin1')).toBe('\x7fELF')
  expect(header.readUInt16LE(18)).toBe(0xb7) // e_machine: EM_AARCH64
})

test.skipIf(skip)(
  'under qemu, the arm64 binary starts, takes an upload, renders a preview and serves a range',
  async () => {
    const binary = join(dir, 'pdfshare')
    copyFileSync(built, binary)
    // The user and token come from the x64 binary of the same build (one data dir format): every start under
    // emulation costs 5–30 s, and the server's own start opens and migrates the data dir all the same.
    const host = [join(ROOT, 'dist', 'pdfshare')]
    expect((await run(['user', 'add', 'alice'], { cwd: dir, program: host })).code).toBe(0)
    const issued = await run(['token', 'issue', 'alice'], { cwd: dir, program: host })
    expect(issued.code).toBe(0)
    const token = issued.stdout.trim()

    // A start under emulation beside a busy machine took past a minute: bounded for a hang, not for speed.
    const server = await startServer([], { cwd: dir, program: emulated(binary), env, startTimeoutMs: 240_000 })
    try {
      const pdf = makePdf({ pages: 2 })
      const file = await uploadPdfTo(server.url, token, pdf, { title: 'On ARM' })
      expect(file).toMatchObject({ title: 'On ARM', fileSize: pdf.length })

      // The preview comes from a renderer process (the arm64 binary again): PDFium's wasm and arm64 sharp/libvips.
      // A share page answers the placeholder while the card renders (`X-Preview: pending`); ask again until it is done.
      let preview = await fetch(`${shareUrlOn(server.url, file)}/preview.png`)
      for (let tries = 0; preview.headers.get('x-preview') === 'pending' && tries < 240; tries++) {
        await Bun.sleep(1000)
        preview = await fetch(`${shareUrlOn(server.url, file)}/preview.png`)
      }
      expect(preview.status).toBe(200)
      expect(preview.headers.get('x-preview')).toBeNull()
      const png = Buffer.from(await preview.arrayBuffer())
      const { default: sharp } = await import('sharp')
      expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 })
      expect((await sharp(png).stats()).channels[0]!.min).toBeLessThan(100) // page 1's text, not the placeholder

      const range = await fetch(`${shareUrlOn(server.url, file)}/file`, { headers: { range: 'bytes=10-99' } })
      expect(range.status).toBe(206)
      expect(range.headers.get('content-range')).toBe(`bytes 10-99/${pdf.length}`)
      expect(new Uint8Array(await range.arrayBuffer())).toEqual(pdf.subarray(10, 100))
    } finally {
      expect(await server.stop()).toBe(0)
    }
  },
  600_000,
)
