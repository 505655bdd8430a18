import { afterAll, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bearer } from '../support/bearer'
import { form } from '../support/harness'
import { inkPerLine, unembeddedFontsPdf } from '../../scripts/support/font-pdfs'
import { formPatternCycle } from '../../scripts/support/hostile-pdfs'
import { makePdf } from '../../scripts/support/pdf'
import { ROOT, run, startServer } from '../../scripts/support/process'
import { sharePathOf, shareUrlOn } from '../support/share-paths'
import { uploadPdfTo } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'

// The compiled binary (built by `bun run test` / `bun run build`), run from an empty directory with no
// node_modules anywhere above it: everything it needs must be inside it.
const built = join(ROOT, 'dist', 'pdfshare')
const dir = mkdtempSync(join(tmpdir(), 'pdfshare-binary-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('dist/pdfshare exists (run `bun run build`)', () => {
  expect(existsSync(built)).toBe(true)
})

test('the binary runs the CLI and a real upload/get/put/list/delete from an empty directory', async () => {
  const binary = join(dir, 'pdfshare')
  copyFileSync(built, binary)
  expect(statSync(binary).mode & 0o111).not.toBe(0)
  const program = [binary]
  let current = dir
  while (current !== '/') {
    expect(existsSync(join(current, 'node_modules'))).toBe(false)
    current = join(current, '..')
  }

  expect((await run(['--version'], { cwd: dir, program })).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  expect((await run(['user', 'add', 'alice'], { cwd: dir, program })).code).toBe(0)
  const issued = await run(['token', 'issue', 'alice'], { cwd: dir, program })
  expect(issued.code).toBe(0)
  const token = issued.stdout.trim()
  expect(token.split('.')).toHaveLength(3)
  expect((await run(['serve', '--port', 'nope'], { cwd: dir, program })).code).toBe(2)

  // Its own temp dir, to see what the binary leaves there (native libraries are extracted at run time).
  const temp = mkdtempSync(join(tmpdir(), 'pdfshare-binary-tmp-'))
  const server = await startServer([], { cwd: dir, program, env: { TMPDIR: temp, PDFSHARE_PREVIEW_TIMEOUT: '3' } })
  try {
    expect(existsSync(join(dir, 'data', 'pdfshare.db'))).toBe(true)
    const auth = bearer(token)
    const pdf = makePdf({ pages: 3 })
    const file = await uploadPdfTo(server.url, token, pdf, { title: 'Smoke' })
    expect(file).toMatchObject({ title: 'Smoke', fileSize: pdf.length, views: 0 })

    const got = await fetch(`${server.url}/api/files/${file.id}`, { headers: auth })
    expect((await got.json()).data).toEqual(file)

    const put = await fetch(`${server.url}/api/files/${file.id}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Renamed', allowDownload: 'no' }),
    })
    expect((await put.json()).data).toMatchObject({ title: 'Renamed', allowDownload: false })

    // A link that does not allow downloads sends no PDF: the page shows pages the binary draws.
    const viewOnly = await (await fetch(`${server.url}${sharePathOf(file)}`, { headers: { 'user-agent': FIREFOX } })).text()
    expect(viewOnly).toContain('data-mode="images"')
    expect((await fetch(`${server.url}${sharePathOf(file)}/file`)).status).toBe(403)
    expect((await fetch(`${server.url}${sharePathOf(file)}/pages/1?w=480`)).headers.get('content-type')).toBe('image/webp')
    const allowAgain = await fetch(`${server.url}/api/files/${file.id}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ allowDownload: true }),
    })
    expect((await allowAgain.json()).data).toMatchObject({ allowDownload: true })

    const replacement = makePdf({ pages: 1, text: () => 'v2' })
    const replaced = await fetch(`${server.url}/api/files/${file.id}`, { method: 'PUT', headers: auth, body: form({ bytes: replacement }) })
    expect((await replaced.json()).data).toMatchObject({ id: file.id, fileSize: replacement.length, shareUrl: file.shareUrl })

    // The share page and the preview: pdf.js assets, PDFium (wasm) and sharp (native) from inside the binary.
    const sharePath = sharePathOf(file)
    const page = await fetch(`${server.url}${sharePath}`, { headers: { 'user-agent': FIREFOX } })
    expect(page.status).toBe(200)
    const html = await page.text()
    const worker = /data-pdfjs="([^"]+)"/.exec(html)![1]!
    expect((await fetch(`${server.url}${worker}pdf.worker.min.mjs`)).status).toBe(200)
    const preview = await fetch(`${server.url}${sharePath}/preview.png`)
    expect(preview.status).toBe(200)
    const png = Buffer.from(await preview.arrayBuffer())
    const { default: sharp } = await import('sharp')
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 })
    expect((await sharp(png).stats()).channels[0]!.min).toBeLessThan(100) // page 1's text, not the placeholder
    expect(readdirSync(join(dir, 'data', 'previews')).filter((name) => name.endsWith('.png'))).toHaveLength(1)
    // …rendered by the binary itself, started as a child preview renderer (it stays for the next render).
    const children = readFileSync(`/proc/${server.proc.pid}/task/${server.proc.pid}/children`, 'utf8').trim().split(/\s+/).map(Number)
    const commandLines = children.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean))
    // (Page 1 of each new PDF is drawn ahead on a renderer of its own: at most two, every one the binary itself.)
    expect(commandLines.length).toBeGreaterThanOrEqual(1)
    expect(commandLines.length).toBeLessThanOrEqual(2)
    for (const line of commandLines) expect(line).toEqual([binary, '__preview-renderer'])
    // Text in fonts the PDF does not embed is drawn from the fonts inside the binary (Cyrillic, Greek, CJK).
    const fonts = unembeddedFontsPdf()
    const fontsFile = await uploadPdfTo(server.url, token, fonts.bytes)
    const fontsPage = await fetch(`${shareUrlOn(server.url, fontsFile)}/pages/1?w=800`, { headers: { 'user-agent': FIREFOX } })
    expect(fontsPage.status).toBe(200)
    const ink = await inkPerLine(Buffer.from(await fontsPage.arrayBuffer()), fonts.lines)
    expect(fonts.lines.filter((line) => ink[line.label]! < 800).map((line) => line.label)).toEqual([])
    expect((await fetch(`${server.url}/api/files/${fontsFile.id}`, { method: 'DELETE', headers: auth })).status).toBe(200)
    // A PDF that never finishes rendering: its renderer is killed, and the placeholder is answered.
    const hostile = await uploadPdfTo(server.url, token, formPatternCycle())
    // Asked again while the answer is the pending placeholder (no ETag): on a busy machine the render may run out
    // its CPU time after the request's wait is over.
    let hostilePreview = await fetch(`${shareUrlOn(server.url, hostile)}/preview.png`)
    for (let tries = 0; tries < 60 && hostilePreview.headers.get('etag') === null; tries++) {
      await Bun.sleep(1_000)
      hostilePreview = await fetch(`${shareUrlOn(server.url, hostile)}/preview.png`)
    }
    expect(hostilePreview.headers.get('etag')).toEndWith('-0"')
    expect((await fetch(`${server.url}/api/files/${hostile.id}`, { method: 'DELETE', headers: auth })).status).toBe(200)

    const list = await (await fetch(`${server.url}/api/files`, { headers: auth })).json()
    expect(list.data.map((f: { id: string }) => f.id)).toEqual([file.id])
    // The schemas hold in the build as in the source (a minifier that renamed identifiers once let these through).
    for (const limit of ['0', '101', '-1']) {
      const refused = await fetch(`${server.url}/api/files?limit=${limit}`, { headers: auth })
      expect([limit, refused.status, (await refused.json()).code]).toEqual([limit, 400, 'invalid_request'])
    }

    const content = await fetch(`${server.url}/api/files/${file.id}/content`, { headers: auth })
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(replacement)

    // A backup is written through its opened folder (/proc/self/fd), in the binary as from source, and restores.
    const backup = await run(['backup', join(dir, 'backup')], { cwd: dir, program })
    expect(backup.code, backup.stderr).toBe(0)
    expect(readdirSync(join(dir, 'backup')).sort()).toEqual(['backup.json', 'blobs', 'jwt-secret', 'pdfshare.db'])
    const restored = await run(['restore', join(dir, 'backup'), '--data', join(dir, 'restored')], { cwd: dir, program })
    expect(restored.code, restored.stderr).toBe(0)
    expect(restored.stdout).toContain('restored 1 file(s)')

    expect((await fetch(`${server.url}/api/files/${file.id}`, { method: 'DELETE', headers: auth })).status).toBe(200)
    expect((await fetch(`${server.url}/api/files/${file.id}`, { headers: auth })).status).toBe(404)
    expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(200)
  } finally {
    expect(await server.stop()).toBe(0)
  }
  expect(existsSync(join(dir, 'data', 'server.pid'))).toBe(false)
  // Killed renderers leave nothing behind: the only thing left is Bun's own cached copy of the libSQL addon.
  expect(readdirSync(temp).filter((name) => !/^\.bun-.*\.node$/.test(name))).toEqual([])
  rmSync(temp, { recursive: true, force: true })
})
