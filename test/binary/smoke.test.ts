import { afterAll, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { form } from '../support/harness'
import { makePdf } from '../support/pdf'
import { ROOT, run, startServer } from '../support/process'

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

  const server = await startServer([], { cwd: dir, program })
  try {
    expect(existsSync(join(dir, 'data', 'pdfshare.db'))).toBe(true)
    const auth = { authorization: `Bearer ${token}` }
    const pdf = makePdf({ pages: 3 })
    const uploaded = await fetch(`${server.url}/api/files/upload`, { method: 'POST', headers: auth, body: form({ bytes: pdf }, { title: 'Smoke' }) })
    expect(uploaded.status).toBe(201)
    const file = (await uploaded.json()).data
    expect(file).toMatchObject({ title: 'Smoke', fileSize: pdf.length, views: 0 })

    const got = await fetch(`${server.url}/api/files/${file.id}`, { headers: auth })
    expect((await got.json()).data).toEqual(file)

    const put = await fetch(`${server.url}/api/files/${file.id}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Renamed', allowDownload: 'no' }) })
    expect((await put.json()).data).toMatchObject({ title: 'Renamed', allowDownload: false })

    const replacement = makePdf({ pages: 1, text: () => 'v2' })
    const replaced = await fetch(`${server.url}/api/files/${file.id}`, { method: 'PUT', headers: auth, body: form({ bytes: replacement }) })
    expect((await replaced.json()).data).toMatchObject({ id: file.id, fileSize: replacement.length, shareUrl: file.shareUrl })

    // The share page and the preview: pdf.js assets, PDFium (wasm) and sharp (native) from inside the binary.
    const sharePath = new URL(file.shareUrl).pathname
    const page = await fetch(`${server.url}${sharePath}`, { headers: { 'user-agent': 'Mozilla/5.0 Firefox/140.0' } })
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

    const list = await (await fetch(`${server.url}/api/files`, { headers: auth })).json()
    expect(list.data.map((f: { id: string }) => f.id)).toEqual([file.id])

    const content = await fetch(`${server.url}/api/files/${file.id}/content`, { headers: auth })
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(replacement)

    expect((await fetch(`${server.url}/api/files/${file.id}`, { method: 'DELETE', headers: auth })).status).toBe(200)
    expect((await fetch(`${server.url}/api/files/${file.id}`, { headers: auth })).status).toBe(404)
    expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(200)
  } finally {
    expect(await server.stop()).toBe(0)
  }
  expect(existsSync(join(dir, 'data', 'server.pid'))).toBe(false)
})
