/**
 * `bun scripts/docs-screenshots.ts`: the pictures of docs/languages.md, drawn by Debian's Chromium against the
 * compiled binary (dist/pdfshare, built when missing) on a fresh data dir: the share page in German (a browser
 * whose locale is de-DE), in Arabic (right to left, the toolbar mirrored, the page not) and an expired link's 410
 * page in Japanese (the day it ended, the Japanese way). Each is written as a small palette PNG to docs/images/;
 * run it again after the pages change, and look at the pictures before committing them.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import sharp from 'sharp'
import { commandOf, ensureBinary, freshDir, ROOT, serve } from './bench/support'
import { launchHeadlessChromium } from './support/chromium'
import { makePdf } from './support/pdf'

const OUT = join(ROOT, 'docs', 'images')
const VIEWPORT = { width: 900, height: 600 }
/** Headless Chromium says so in its User-Agent: the reader here says it is plain Chrome, as a reader would. */
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'

/**
 * Japanese needs a font with its characters, which a server image seldom has (the page would show boxes): Debian's
 * small IPA Gothic, installed with apt-get when fontconfig knows no font for Japanese.
 */
function ensureJapaneseFont() {
  if (Bun.spawnSync(['fc-list', ':lang=ja']).stdout.toString().trim() !== '') return
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n']
  console.error('installing fonts-ipafont-gothic with apt-get…')
  Bun.spawnSync([...asRoot, 'apt-get', 'update'], { stdout: 'ignore', stderr: 'inherit' })
  Bun.spawnSync([...asRoot, 'apt-get', 'install', '-y', 'fonts-ipafont-gothic'], {
    stdout: 'ignore',
    stderr: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
  if (Bun.spawnSync(['fc-list', ':lang=ja']).stdout.toString().trim() === '') {
    throw new Error('no font for Japanese: apt-get install -y fonts-ipafont-gothic, and run again')
  }
}

ensureJapaneseFont()
const binary = ensureBinary()
const dataDir = freshDir('docs-screenshots')
const cli = (...args: string[]) =>
  Bun.spawnSync([...commandOf(binary), ...args, '--data', dataDir])
    .stdout.toString()
    .trim()
cli('user', 'add', 'docs')
const token = cli('token', 'issue', 'docs')
const server = await serve(binary, dataDir, { PDFSHARE_RATE_LIMIT_SHARE: '0' })
let browser: Browser | undefined
try {
  const api = async <T>(path: string, init: RequestInit) => {
    const response = await fetch(`${server.url}/api${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: T }).data
  }
  const body = new FormData()
  const pdf = makePdf({ pages: 3, text: (page) => `Annual report 2026, page ${page}` })
  body.append('file', new File([pdf], 'annual-report.pdf', { type: 'application/pdf' }))
  body.append('title', 'Annual report 2026')
  const file = await api<{ id: string; shareUrl: string }>('/files/upload', { method: 'POST', body })
  const pathOf = (url: string) => `${server.url}${new URL(url).pathname}`
  const expiresAt = Date.now() + 1_500
  const expiring = await api<{ url: string }>(`/files/${file.id}/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ expiresAt: new Date(expiresAt).toISOString() }),
  })

  browser = await launchHeadlessChromium()
  mkdirSync(OUT, { recursive: true })
  const shoot = async (locale: string, url: string, name: string, ready: (page: import('playwright-core').Page) => Promise<unknown>) => {
    const context = await browser!.newContext({ locale, userAgent: CHROME, viewport: VIEWPORT })
    try {
      const page = await context.newPage()
      await page.goto(url)
      await ready(page)
      if (name === '') return
      const png = await page.screenshot()
      const path = join(OUT, name)
      await sharp(png).png({ palette: true, colours: 64, compressionLevel: 9, effort: 10 }).toFile(path)
      console.log(`${path}: ${(Bun.file(path).size / 1024).toFixed(1)} KiB`)
    } finally {
      await context.close()
    }
  }
  // The viewer is up and page 1 drawn: pdf.js counted the pages, and the page's image or canvas is on screen.
  const viewerReady = async (page: import('playwright-core').Page) => {
    await page.locator('#page-count', { hasText: '3' }).waitFor({ timeout: 60_000 })
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(500)
  }
  // One load first, not kept: the first after the server started drew page 1 while the viewer was still settling.
  await shoot('en-US', pathOf(file.shareUrl), '', viewerReady)
  await shoot('de-DE', pathOf(file.shareUrl), 'languages-de.png', viewerReady)
  await shoot('ar', pathOf(file.shareUrl), 'languages-ar.png', viewerReady)
  await Bun.sleep(Math.max(0, expiresAt - Date.now() + 500))
  const day = new Intl.DateTimeFormat('ja', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(expiresAt)
  await shoot('ja-JP', pathOf(expiring.url), 'languages-ja.png', (page) =>
    page.getByText(`このリンクは ${day} に有効期限が切れました。`).waitFor(),
  )
} finally {
  await browser?.close()
  server.proc.kill('SIGTERM')
  await server.proc.exited
  rmSync(dataDir, { recursive: true, force: true })
}
