import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { assemblePdf } from '../../scripts/support/pdf'
import { run, startServer, type RunningServer } from '../../scripts/support/process'
import { shareUrlOn } from '../support/share-paths'
import { uploadPdfTo } from '../support/uploads'
import { eventually, launchChromium } from './browser'

// What Chromium's own PDF viewer does with a PDF's JavaScript, against the server run from source (the
// headers are the same in the binary; this needs no build).

/** A one-page PDF whose OpenAction runs JavaScript: app.alert shows up as a dialog the test can see. */
function pdfWithScript(message: string): Uint8Array<ArrayBuffer> {
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    `<< /S /JavaScript /JS (app.alert\\('${message}'\\);) >>`,
  ])
}

const dir = mkdtempSync(join(tmpdir(), 'pdfshare-framing-'))
let server: RunningServer
let browser: Browser
let fileUrl: string
// Another site: a different origin (port) that embeds pdfshare's raw PDF in a frame.
const otherSite = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: (request) =>
    new Response(
      `<!doctype html><title>elsewhere</title><iframe src="${new URL(request.url).searchParams.get('src')}" width="400" height="400"></iframe>`,
      { headers: { 'content-type': 'text/html' } },
    ),
})

beforeAll(async () => {
  await run(['user', 'add', 'framer', '--data', dir])
  const token = (await run(['token', 'issue', 'framer', '--data', dir])).stdout.trim()
  server = await startServer(['--data', dir], { env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })
  fileUrl = `${shareUrlOn(server.url, await uploadPdfTo(server.url, token, pdfWithScript('pdf-script-ran')))}/file`
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  otherSite.stop(true)
  rmSync(dir, { recursive: true, force: true })
})

/**
 * Opens `url` and waits until `done` says what the test looks for has happened (no fixed wait: how long the PDF
 * viewer takes to load depends on the machine); the dialogs shown and the frames there were by then.
 */
async function open(
  url: string,
  done: (seen: { dialogs: string[]; frames: string[] }) => boolean,
): Promise<{ dialogs: string[]; frames: string[] }> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  const seen = () => ({ dialogs: [...dialogs], frames: page.frames().map((frame) => frame.url()) })
  try {
    await page.goto(url)
    await eventually(() => expect(done(seen())).toBe(true), 50_000)
    return seen()
  } finally {
    await context.close()
  }
}

test("opened directly, Chromium's PDF viewer runs the PDF's script (pdfshare cannot stop that; this shows the test can see it)", async () => {
  expect((await open(fileUrl, ({ dialogs }) => dialogs.length > 0)).dialogs).toEqual(['pdf-script-ran'])
})

test('another site cannot frame the raw PDF, so its script never runs inside their page', async () => {
  // Once the frame shows Chromium's error page, no PDF viewer is left that could run the script.
  const { dialogs, frames } = await open(`http://127.0.0.1:${otherSite.port}/?src=${encodeURIComponent(fileUrl)}`, ({ frames }) =>
    frames.includes('chrome-error://chromewebdata/'),
  )
  expect(dialogs).toEqual([])
  expect(frames.some((url) => url.startsWith('chrome-extension://'))).toBe(false) // no PDF viewer was started
  expect(frames).toContain('chrome-error://chromewebdata/')
})
