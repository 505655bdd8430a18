import { describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { slowPage } from '../../scripts/support/hostile-pdfs'
import { run, startServer } from '../../scripts/support/process'
import { eventually } from '../support/eventually'
import { startTestApp } from '../support/harness'
import { darkest, isPlaceholder, previewOf as preview, STARVED_MS } from '../support/preview-cards'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf, uploadPdfTo } from '../support/uploads'
import { SLACKBOT } from '../support/user-agents'

// A preview request always gets an answer, in time for its connection, and the renderers stop with their server.
// (What a hostile PDF gets: hostile-previews.test.ts.)

test(
  'renderers stop with the server',
  async () => {
    const other = await startTestApp()
    const user = await other.user()
    const path = sharePathOf(await uploadPdf(other, user))
    const childrenOf = () =>
      new Set(readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number))
    const before = childrenOf()
    expect((await preview(other, path)).status).toBe(200)
    const renderers = [...childrenOf()].filter(
      (pid) => !before.has(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('__preview-renderer'),
    )
    expect(renderers).toHaveLength(1)
    other.app.listen({ port: 0, hostname: '127.0.0.1' })
    await other.app.stop()
    // Killed as the server stops; gone as soon as the kernel has delivered that, however busy the machine.
    await eventually(() => expect(existsSync(join('/proc', String(renderers[0])))).toBe(false))
  },
  STARVED_MS,
)

describe('a preview request always gets an answer', () => {
  test(
    'a correct PDF that is only slow gets its card on a second try, in the background, with more time',
    async () => {
      const impatient = await startTestApp({ PDFSHARE_PREVIEW_TIMEOUT: '1', PDFSHARE_IDLE_TIMEOUT: '120' })
      const user = await impatient.user()
      const file = await uploadPdf(impatient, user, slowPage(6_000)) // about 1.8 s of CPU time to draw
      const first = await preview(impatient, sharePathOf(file))
      expect(isPlaceholder(first)).toBe(true)
      const lines = () => impatient.log.lines.filter((line) => line.startsWith(`preview of file ${file.id}:`))
      // The limit is CPU time: however busy the machine, the first render runs out of it, and the second try has enough.
      expect(lines()[0]).toBe(
        `preview of file ${file.id}: needed more than 1 s of CPU time; serving the placeholder for this version of the PDF`,
      )
      await eventually(async () => expect(isPlaceholder(await preview(impatient, sharePathOf(file)))).toBe(false), STARVED_MS - 30_000)
      const card = await preview(impatient, sharePathOf(file))
      expect(await darkest(await card.arrayBuffer())).toBeLessThan(128) // the page's title is on it
      expect(lines().at(-1)).toBe(`preview of file ${file.id}: rendered on its second try (up to 30 s of CPU time)`)
      // Its pages were counted with it.
      expect(
        await impatient.ctx.db.hot.get('SELECT pages FROM pdf_pages WHERE blob_key = (SELECT blob_key FROM files WHERE id = ?)', [file.id]),
      ).toEqual([1])
    },
    STARVED_MS,
  )

  test('past the idle timeout no request is left unanswered: the placeholder, pending, and the render goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pdfshare-preview-wait-'))
    try {
      await run(['user', 'add', 'waiter', '--data', dir])
      const token = (await run(['token', 'issue', 'waiter', '--data', dir])).stdout.trim()
      // A connection silent for 10 s is dropped, so a request waits 7.5 s for its card (previewWaitOf); renders
      // get 9 s of CPU time each, two at a time, and these PDFs need about a minute: none is drawn in the wait.
      const server = await startServer(['--data', dir], {
        // Nothing drawn ahead, no text read for search: the cards are the only renders.
        env: { PDFSHARE_IDLE_TIMEOUT: '10', PDFSHARE_PREVIEW_TIMEOUT: '9', PDFSHARE_DRAW_AHEAD: 'false', PDFSHARE_SEARCH_INDEX: 'false' },
      })
      try {
        const files = []
        for (let i = 0; i < 6; i++) files.push(await uploadPdfTo(server.url, token, slowPage(200_000 + i)))
        const answers = await Promise.all(
          files.map(async (file) => {
            const response = await fetch(`${file.shareUrl.replace(/^https?:\/\/[^/]+/, server.url)}/preview.png`, {
              headers: { 'user-agent': SLACKBOT },
            })
            return {
              status: response.status,
              pending: response.headers.get('x-preview'),
              cache: response.headers.get('cache-control'),
            }
          }),
        )
        // Every one answered (before, 4 of 16 such requests got no answer at all: a connection dropped as silent
        // fails the fetch), each with the placeholder, pending: the renders go on.
        expect(answers).toEqual(Array(6).fill({ status: 200, pending: 'pending', cache: 'no-store' }))
      } finally {
        await server.stop()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  test('a preview timeout that no request could wait for is refused at start', async () => {
    const refused = await run(['user', 'list', '--data', join(tmpdir(), 'never-made')], {
      env: { PDFSHARE_IDLE_TIMEOUT: '30', PDFSHARE_PREVIEW_TIMEOUT: '30' },
    })
    expect(refused.code).toBe(2)
    expect(refused.stderr.trim()).toBe(
      'pdfshare: PDFSHARE_PREVIEW_TIMEOUT (30 s) must be shorter than PDFSHARE_IDLE_TIMEOUT (30 s): a connection silent that long is dropped, so no preview that takes as long could ever be answered',
    )
  })
})
