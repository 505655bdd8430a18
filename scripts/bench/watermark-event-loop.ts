/**
 * A watermarked reader's pages against the server's event loop, in process (`bun scripts/bench/watermark-event-loop.ts`):
 * the app on a fresh data dir, a reader of a watermarked link reads pages whose images beneath and whose overlay
 * are drawn already, so each request costs the watermark's laying on alone. What the event loop's thread spent
 * on the CPU for each page, and how long a timer due every millisecond waited at most (on a busy machine that
 * also counts the time the process was not running). Pages: US Letter at 1200 px, and pages four times
 * as high as wide at 2400 px (the largest image a page is drawn at: 2400 × 9600).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { addUser } from '../../src/core/accounts/users/add-user'
import { issueToken } from '../../src/core/accounts/tokens/issue-token'
import type { Logger } from '../../src/log'
import { openContext } from '../../src/open-context'
import { makePdf } from '../support/pdf'

/**
 * CPU time of this process's main thread, the event loop's (Linux: its task's utime + stime, in ticks of 10 ms):
 * unlike the timer's gaps, not lengthened by a busy machine that runs something else for a while.
 */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'
const PAGES = 8
const ROUNDS = 3

const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-watermark-loop-'))
const config = loadConfig(
  { data: dataDir, 'public-url': 'https://pdf.example.test' },
  {
    PDFSHARE_RATE_LIMIT_API: '0',
    PDFSHARE_RATE_LIMIT_SHARE: '0',
    PDFSHARE_DRAW_AHEAD: 'false',
    PDFSHARE_PREVIEW_TIMEOUT: '60',
    PDFSHARE_IDLE_TIMEOUT: '120',
  },
)
const quiet: Logger = {
  info: (line) => {
    if (!line.includes(' GET ') && !line.includes(' POST ')) console.error(line)
  },
  error: (line) => console.error(line),
}
const ctx = await openContext(config, quiet)
const app = createApp(ctx)
const call = (path: string, init: RequestInit = {}) => app.handle(new Request(`http://localhost${path}`, init))

try {
  await addUser(ctx, { name: 'bench' })
  const { jwt } = await issueToken(ctx, { userName: 'bench', label: 'bench', ttlSeconds: 3600 })
  const auth = { authorization: `Bearer ${jwt}` }

  /** A link with a watermark on a new PDF, and a reader's cookie from its page. */
  const watermarkedLink = async (pageSize: [number, number]) => {
    const body = new FormData()
    body.append('file', new File([makePdf({ pages: PAGES, pageSize: () => pageSize })], 'bench.pdf', { type: 'application/pdf' }))
    const file = (await (await call('/api/files/upload', { method: 'POST', headers: auth, body })).json()).data
    const created = await call(`/api/files/${file.id}/links`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ watermark: 'Reader {visit} · {date}' }),
    })
    const path = new URL((await created.json()).data.url).pathname
    const page = await call(path, { headers: { 'user-agent': FIREFOX } })
    const cookie = page.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    return { path, cookie }
  }

  const measure = async (name: string, pageSize: [number, number], width: number) => {
    const link = await watermarkedLink(pageSize)
    const get = async (page: number) => {
      const response = await call(`${link.path}/pages/${page}?w=${width}`, { headers: { 'user-agent': FIREFOX, cookie: link.cookie } })
      if (response.status !== 200) throw new Error(`page ${page} answered ${response.status}`)
      await response.arrayBuffer()
    }
    for (let page = 1; page <= PAGES; page++) await get(page) // the pages beneath and the overlay, drawn
    // First the time a page takes and the event loop's CPU, then the longest wait of a timer (whose own ticks
    // would count in the CPU time).
    const times: number[] = []
    const cpuAtStart = mainThreadCpuMs()
    for (let round = 0; round < ROUNDS; round++)
      for (let page = 1; page <= PAGES; page++) {
        const started = performance.now()
        await get(page)
        times.push(performance.now() - started)
      }
    const cpuMs = (mainThreadCpuMs() - cpuAtStart) / times.length
    let longest = 0
    let last = performance.now()
    const timer = setInterval(() => {
      const now = performance.now()
      longest = Math.max(longest, now - last)
      last = now
    }, 1)
    for (let page = 1; page <= PAGES; page++) await get(page)
    clearInterval(timer)
    times.sort((a, b) => a - b)
    const median = times[Math.floor(times.length / 2)]!
    console.log(
      `${name}: median ${median.toFixed(1)} ms a page (${times.length} pages); the event loop's thread on the CPU ${cpuMs.toFixed(0)} ms a page; the timer's longest wait ${longest.toFixed(1)} ms`,
    )
  }

  await measure('US Letter at 1200 px', [612, 792], 1200)
  await measure('a page 4× as high as wide at 2400 px', [612, 2448], 2400)
} finally {
  ctx.close()
  rmSync(dataDir, { recursive: true, force: true })
}
