import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { makePdf } from '../support/pdf'
import { commandOf, freshDir, median, serve } from './support'
import { DEBIAN_CHROMIUM, launchHeadlessChromium } from '../support/chromium'

type Shared = {
  url: string
  token: string
  pid: number
  dataDir: string
  stop: () => Promise<void>
  /** Uploads a PDF and returns its share page's URL on this server. */
  upload: (bytes: Uint8Array<ArrayBuffer>) => Promise<string>
}

/** The binary serving a fresh data dir with one user and a token, rate limits on /s/* off. */
export async function sharedServer(binary: string, label = 'share', env: Record<string, string> = {}): Promise<Shared> {
  const dataDir = freshDir(label)
  const cli = (...args: string[]) =>
    Bun.spawnSync([...commandOf(binary), ...args, '--data', dataDir])
      .stdout.toString()
      .trim()
  cli('user', 'add', 'bench')
  const token = cli('token', 'issue', 'bench')
  const { proc, url } = await serve(binary, dataDir, { PDFSHARE_RATE_LIMIT_SHARE: '0', ...env })
  const upload = async (bytes: Uint8Array<ArrayBuffer>) => {
    const body = new FormData()
    body.append('file', new File([bytes], 'bench.pdf', { type: 'application/pdf' }))
    const { data } = await (
      await fetch(`${url}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body })
    ).json()
    return `${url}${new URL(data.shareUrl).pathname}`
  }
  return {
    url,
    token,
    upload,
    pid: proc.pid,
    dataDir,
    stop: async () => {
      proc.kill('SIGTERM')
      await proc.exited
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Preview render times: the first ever (cold: wasm compile, sharp load), a new file on a warm server, and cached. */
export async function previewTimes(binary: string) {
  const server = await sharedServer(binary)
  try {
    const time = async (url: string) => {
      const started = performance.now()
      const response = await fetch(`${url}/preview.png`)
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`preview answered ${response.status}`)
      return performance.now() - started
    }
    const small = await server.upload(makePdf({ pages: 2 }))
    const coldMs = await time(small)
    const warm: number[] = []
    for (let i = 0; i < 5; i++) warm.push(await time(await server.upload(makePdf({ pages: 2, text: (p) => `page ${p} of ${i}` }))))
    const large = await server.upload(makePdf({ pages: 60, imageBytesPerPage: 270_000, layout: 'grouped' }))
    const largeMs = await time(large)
    const cached: number[] = []
    for (let i = 0; i < 20; i++) cached.push(await time(small))
    return { coldMs, warmMs: median(warm), largeMs, cachedMs: median(cached) }
  } finally {
    await server.stop()
  }
}

/**
 * Pages drawn on the server (`/s/:slug/pages/:n?w=`): the median draw of a new page of a small PDF at each width
 * of the ladder, a page of the 60-page 16 MB PDF, a cached page, and the bytes of the cached images.
 */
export async function pageImageTimes(binary: string) {
  const server = await sharedServer(binary, 'pages')
  try {
    const time = async (url: string) => {
      const started = performance.now()
      const response = await fetch(url)
      const bytes = (await response.arrayBuffer()).byteLength
      if (response.status !== 200) throw new Error(`page image answered ${response.status}`)
      return { ms: performance.now() - started, bytes }
    }
    const small = await server.upload(makePdf({ pages: 12, text: (p) => `Page ${p}, a few words of text on it` }))
    await time(`${small}/pages/1?w=480`) // starts a renderer
    const widths = [480, 800, 1200, 1800, 2400].map((width) => ({ width, runs: [] as { ms: number; bytes: number }[] }))
    for (const row of widths) for (let page = 2; page <= 6; page++) row.runs.push(await time(`${small}/pages/${page}?w=${row.width}`))
    const large = await server.upload(makePdf({ pages: 60, imageBytesPerPage: 270_000, layout: 'grouped' }))
    const largeMs = (await time(`${large}/pages/30?w=1200`)).ms
    const cached: number[] = []
    for (let i = 0; i < 20; i++) cached.push((await time(`${small}/pages/2?w=800`)).ms)
    return {
      perWidth: widths.map((row) => ({
        width: row.width,
        ms: median(row.runs.map((r) => r.ms)),
        bytes: median(row.runs.map((r) => r.bytes)),
      })),
      largeMs,
      cachedMs: median(cached),
    }
  } finally {
    await server.stop()
  }
}

/** CPU time (user + system, ms) of a process and its children still running (the renderers), from /proc. */
function cpuOfTree(pid: number): number {
  const cpu = (id: number) => {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return (Number(fields[11]) + Number(fields[12])) * 10
    } catch {
      return 0
    }
  }
  let children: number[] = []
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    // no children file: the server alone
  }
  return cpu(pid) + children.reduce((sum, child) => sum + cpu(child), 0)
}

/**
 * A reader going through a 100-page PDF drawn on the server at 1200 px, page after page: the disk its images take
 * in the cache, and the server's CPU per page (renderer processes included) when drawn and when cached.
 */
export async function pageCacheAndCpu(binary: string) {
  const server = await sharedServer(binary, 'pages-100')
  try {
    const url = await server.upload(makePdf({ pages: 100, text: (p) => `Page ${p} of a hundred, with a line of text on it` }))
    const get = async (page: number) => {
      const response = await fetch(`${url}/pages/${page}?w=1200`)
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`page ${page} answered ${response.status}`)
    }
    await get(1) // starts a renderer
    const drawnFrom = cpuOfTree(server.pid)
    for (let page = 2; page <= 100; page++) await get(page)
    const drawnCpuMs = (cpuOfTree(server.pid) - drawnFrom) / 99
    const cachedFrom = cpuOfTree(server.pid)
    for (let page = 1; page <= 100; page++) await get(page)
    const cachedCpuMs = (cpuOfTree(server.pid) - cachedFrom) / 100
    const folder = join(server.dataDir, 'previews')
    const cacheBytes = readdirSync(folder)
      .filter((name) => name.endsWith('-w1200.webp'))
      .reduce((sum, name) => sum + statSync(join(folder, name)).size, 0)
    return { cacheBytes, drawnCpuMs, cachedCpuMs }
  } finally {
    await server.stop()
  }
}

/**
 * Watermarks per reader: a reader of a watermarked link (its visit cookie from its page) reads pages at 1200 px
 * whose pages beneath are cached already: the first costs the overlay's drawing, every later one a composite
 * (against the same pages unwatermarked). Their downloads: the stamped copy made at the first, read from the page
 * cache at the second, for a small PDF and for the 60-page 16 MB one.
 */
export async function watermarkTimes(binary: string) {
  const server = await sharedServer(binary, 'watermarks')
  const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'
  try {
    const watermarked = async (pdf: Uint8Array<ArrayBuffer>) => {
      const share = await server.upload(pdf)
      const fileId = (
        await (await fetch(`${server.url}/api/files`, { headers: { authorization: `Bearer ${server.token}` } })).json()
      ).data.find((file: { shareUrl: string }) => share.endsWith(new URL(file.shareUrl).pathname)).id
      const created = await fetch(`${server.url}/api/files/${fileId}/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ watermark: 'Reader {visit} · {date}' }),
      })
      const link = `${server.url}${new URL((await created.json()).data.url).pathname}`
      const page = await fetch(link, { headers: { 'user-agent': firefox } })
      const cookie = page.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; ')
      return { share, link, cookie }
    }
    const time = async (url: string, cookie = '') => {
      const started = performance.now()
      const response = await fetch(url, { headers: { 'user-agent': firefox, cookie } })
      const bytes = (await response.arrayBuffer()).byteLength
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`)
      return { ms: performance.now() - started, bytes }
    }
    const small = await watermarked(makePdf({ pages: 12, text: (p) => `Page ${p}, a few words of text on it` }))
    for (let page = 1; page <= 12; page++) await time(`${small.share}/pages/${page}?w=1200`) // the pages beneath, drawn
    const plain: number[] = []
    for (let page = 2; page <= 12; page++) plain.push((await time(`${small.share}/pages/${page}?w=1200`)).ms)
    const overlayMs = (await time(`${small.link}/pages/1?w=1200`, small.cookie)).ms
    const composite: number[] = []
    for (let page = 2; page <= 12; page++) composite.push((await time(`${small.link}/pages/${page}?w=1200`, small.cookie)).ms)
    const stampSmall = await time(`${small.link}/download`, small.cookie)
    const againSmall = await time(`${small.link}/download`, small.cookie)
    const large = await watermarked(makePdf({ pages: 60, imageBytesPerPage: 270_000, layout: 'grouped' }))
    const stampLarge = await time(`${large.link}/download`, large.cookie)
    return {
      overlayMs,
      compositeMs: median(composite),
      plainCachedMs: median(plain),
      stampSmall,
      againSmallMs: againSmall.ms,
      stampLarge,
    }
  } finally {
    await server.stop()
  }
}

/**
 * The share page in Chromium: page 1 of a 60-page 16 MB PDF (time after navigation, PDF bytes fetched), and
 * what the viewer itself transfers (everything but the PDF), on a cold cache.
 */
export async function viewerLoad(binary: string, chromiumPath = DEBIAN_CHROMIUM) {
  const server = await sharedServer(binary)
  const browser = await launchHeadlessChromium(chromiumPath)
  try {
    const pdf = makePdf({ pages: 60, imageBytesPerPage: 270_000, layout: 'grouped' })
    const url = await server.upload(pdf)
    const runs: { firstPageMs: number; pdfBytes: number; viewerBytes: number }[] = []
    for (let i = 0; i < 5; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      const urls = new Map<string, string>()
      let pdfBytes = 0
      let viewerBytes = 0
      cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url))
      cdp.on('Network.loadingFinished', (event) => {
        const requestUrl = urls.get(event.requestId) ?? ''
        if (new URL(requestUrl).pathname.endsWith('/file')) pdfBytes += event.encodedDataLength
        else viewerBytes += event.encodedDataLength
      })
      await cdp.send('Network.enable')
      await page.goto(url)
      await page.waitForFunction(() => document.getElementById('app')?.dataset.firstPageMs, undefined, { timeout: 30_000 })
      const firstPageMs = Number(await page.locator('#app').getAttribute('data-first-page-ms'))
      await page.waitForTimeout(300) // let the requests page 1 started finish, so their bytes are counted
      runs.push({ firstPageMs, pdfBytes, viewerBytes })
      await context.close()
    }
    return {
      pdfSize: pdf.length,
      firstPageMs: median(runs.map((r) => r.firstPageMs)),
      pdfBytes: median(runs.map((r) => r.pdfBytes)),
      viewerBytes: median(runs.map((r) => r.viewerBytes)),
    }
  } finally {
    await browser.close()
    await server.stop()
  }
}

/**
 * Page 1 on screen: the time from navigation until the browser painted page 1 as the server drew it (Element
 * Timing of the share page's first-page image), on a cold cache, for a small PDF and the 60-page 16 MB PDF, with
 * the bytes that arrived before it (every response that ended by then, headers included) and, for comparison,
 * when pdf.js had drawn page 1 itself. Each PDF is uploaded and its page 1 drawn ahead (PDFSHARE_DRAW_AHEAD), as
 * a first reader after the owner finds it. Median of 5 each; and, as the floor, Chromium's first paint of the 404
 * page in a fresh context (what no page can beat on that machine). Also when the page's first paint (its toolbar)
 * came, and the 60-page PDF once more over an emulated 9 Mbit/s link with 60 ms of latency (Chromium's network
 * emulation), where what arrives before page 1 decides.
 */
export async function firstPageVisible(binary: string, chromiumPath = DEBIAN_CHROMIUM) {
  const server = await sharedServer(binary, 'first-page', { PDFSHARE_DRAW_AHEAD: 'true' })
  const browser = await launchHeadlessChromium(chromiumPath)
  try {
    const measure = async (pdf: Uint8Array<ArrayBuffer>, network?: { kbitPerSecond: number; latencyMs: number }) => {
      const url = await server.upload(pdf)
      // Drawn ahead once the page names its first page (its size is recorded after the drawing).
      for (let tries = 0; !(await (await fetch(url)).text()).includes('id="first-page"'); tries++) {
        if (tries > 300) throw new Error('page 1 was not drawn ahead within 30 s')
        await Bun.sleep(100)
      }
      const runs: { visibleMs: number; firstPaintMs: number; bytes: number; pdfjsMs: number }[] = []
      for (let i = 0; i < 5; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
        await context.addInitScript(() => {
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { identifier: string; renderTime: number; loadTime: number })[])
              if (entry.identifier === 'first-page') (window as { firstPageAt?: number }).firstPageAt = entry.renderTime || entry.loadTime
          }).observe({ type: 'element', buffered: true })
        })
        const page = await context.newPage()
        if (network) {
          const cdp = await context.newCDPSession(page)
          await cdp.send('Network.enable')
          const bytesPerSecond = (network.kbitPerSecond * 1000) / 8
          await cdp.send('Network.emulateNetworkConditions', {
            offline: false,
            latency: network.latencyMs,
            downloadThroughput: bytesPerSecond,
            uploadThroughput: bytesPerSecond,
          })
        }
        await page.goto(url)
        await page.waitForFunction(() => (window as { firstPageAt?: number }).firstPageAt, undefined, { timeout: 30_000 })
        await page.waitForFunction(() => document.getElementById('app')?.dataset.firstPageMs, undefined, { timeout: 30_000 })
        runs.push(
          await page.evaluate(() => {
            const at = (window as { firstPageAt?: number }).firstPageAt!
            const entries = [
              ...performance.getEntriesByType('navigation'),
              ...performance.getEntriesByType('resource'),
            ] as PerformanceResourceTiming[]
            const bytes = entries.filter((entry) => entry.responseEnd <= at).reduce((sum, entry) => sum + entry.transferSize, 0)
            const firstPaintMs = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? at
            return { visibleMs: at, firstPaintMs, bytes, pdfjsMs: Number(document.getElementById('app')!.dataset.firstPageMs) }
          }),
        )
        await context.close()
      }
      return {
        visibleMs: median(runs.map((r) => r.visibleMs)),
        firstPaintMs: median(runs.map((r) => r.firstPaintMs)),
        bytes: median(runs.map((r) => r.bytes)),
        pdfjsMs: median(runs.map((r) => r.pdfjsMs)),
      }
    }
    const small = await measure(makePdf({ pages: 2 }))
    const large = await measure(makePdf({ pages: 60, imageBytesPerPage: 270_000, layout: 'grouped' }))
    const largeOverNetwork = await measure(
      makePdf({ pages: 60, imageBytesPerPage: 270_000, layout: 'grouped', text: (page) => `Page ${page}, read over a network` }),
      {
        kbitPerSecond: 9000,
        latencyMs: 60,
      },
    )
    // The floor: Chromium's first paint of the smallest page the server has (the 404 page: words, one stylesheet) in
    // a fresh context, on the same machine at the same time. Page 1 cannot be painted before the page's first paint.
    const floors: number[] = []
    for (let i = 0; i < 5; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
      const page = await context.newPage()
      await page.goto(`${server.url}/s/nosuchlinknosuchlink00`)
      await page.waitForFunction(() => performance.getEntriesByType('paint').length > 0, undefined, { timeout: 30_000 })
      floors.push(await page.evaluate(() => performance.getEntriesByType('paint')[0]!.startTime))
      await context.close()
    }
    return { small, large, largeOverNetwork, floorMs: median(floors) }
  } finally {
    await browser.close()
    await server.stop()
  }
}

/**
 * The dashboard on a cold cache: bytes transferred (page, script, style, icon; compressed as sent) and the
 * time from navigation until the sign-in form can be used. Median of 5.
 */
export async function dashboardLoad(binary: string, chromiumPath = DEBIAN_CHROMIUM) {
  const server = await sharedServer(binary)
  const browser = await launchHeadlessChromium(chromiumPath)
  try {
    const runs: { bytes: number; interactiveMs: number }[] = []
    for (let i = 0; i < 5; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      let bytes = 0
      cdp.on('Network.loadingFinished', (event) => (bytes += event.encodedDataLength))
      await cdp.send('Network.enable')
      const started = performance.now()
      await page.goto(`${server.url}/app`)
      await page.getByRole('button', { name: 'Sign in' }).waitFor()
      const interactiveMs = performance.now() - started
      await page.waitForTimeout(200)
      runs.push({ bytes, interactiveMs })
      await context.close()
    }
    return { bytes: median(runs.map((r) => r.bytes)), interactiveMs: median(runs.map((r) => r.interactiveMs)) }
  } finally {
    await browser.close()
    await server.stop()
  }
}
