/**
 * run.ts's `--pages`: one uploaded PDF read as a reader of a link that does not allow downloads would read it —
 * pages drawn on the server. Page 1 at 1200 px and its text first (before the share page, which draws page 1 for
 * the next reader when it first opens), then the share page for the page count (its `data-sizes`), then pages 2
 * and 3. Each request's status and time; a 503 (renderers busy) is asked again after its Retry-After.
 */
import { decodePageSizes } from '../../src/shared/page-layout'

/** One request: its final status (or why none came), the time of the last try, and how many tries it took. */
export type Asked = { status: number | 'timeout' | 'error'; ms: number; tries: number }

export type PagesResult = {
  /** The status of making the link when it was not 201 (the rest is then missing). */
  linkStatus?: number
  /** The share page's status, its page count (from data-sizes) or the problem it names (unreadable, password). */
  share?: number | 'timeout' | 'error'
  pages?: number
  problem?: string
  /** By request: `1`, `2`, `3` (the page at 1200 px) and `1/text`. */
  asked: Record<string, Asked>
}

const WIDTH = 1200
const PAGES_READ = 3
const TRIES = 5
const REQUEST_TIMEOUT_MS = 60_000

/** `reader` is the X-Forwarded-For address the requests come from (one per PDF: the per-address draw budget is a reader's, not a corpus's). */
export async function readPages(server: { url: string; token: string }, fileId: string, reader: string): Promise<PagesResult> {
  const created = await fetch(`${server.url}/api/files/${fileId}/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ allowDownload: false }),
  })
  const json = await created.json()
  if (created.status !== 201) return { linkStatus: created.status, asked: {} }
  const link = `${server.url}${new URL(json.data.url).pathname}`
  const result: PagesResult = { asked: {} }
  const headers = { 'x-forwarded-for': reader }
  result.asked['1'] = (await ask(`${link}/pages/1?w=${WIDTH}`, headers)).asked
  result.asked['1/text'] = (await ask(`${link}/pages/1/text`, headers)).asked
  const share = await ask(link, headers)
  result.share = share.asked.status
  const sizes = /data-sizes="([^"]*)"/.exec(share.body)?.[1]
  const problem = /data-problem="([^"]*)"/.exec(share.body)?.[1]
  if (sizes !== undefined) result.pages = decodePageSizes(sizes)?.length
  if (problem !== undefined) result.problem = problem
  for (let page = 2; page <= Math.min(PAGES_READ, result.pages ?? 1); page++)
    result.asked[String(page)] = (await ask(`${link}/pages/${page}?w=${WIDTH}`, headers)).asked
  return result
}

async function ask(url: string, headers: Record<string, string>): Promise<{ asked: Asked; body: string }> {
  for (let tries = 1; ; tries++) {
    const started = performance.now()
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
      const body = response.headers.get('content-type')?.startsWith('text/html') ? await response.text() : ''
      if (!body) await response.arrayBuffer()
      const asked = { status: response.status, ms: Math.round(performance.now() - started), tries }
      if (response.status !== 503 || tries === TRIES) return { asked, body }
      await Bun.sleep(1000 * Number(response.headers.get('retry-after') ?? 1))
    } catch (error) {
      const status = (error as Error).name === 'TimeoutError' ? 'timeout' : 'error'
      return { asked: { status, ms: Math.round(performance.now() - started), tries }, body: '' }
    }
  }
}

const percentile = (sorted: number[], p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0)

/** The summary of `--pages`: page 1 by status (the files of each that is not 200), times of drawn pages and texts. */
export function pagesSummary(results: { file: string; pages?: PagesResult; preview?: string; pdfjs?: object | string }[]) {
  const read = results.flatMap((r) => (r.pages ? [{ file: r.file, preview: r.preview, pdfjs: r.pdfjs, ...r.pages }] : []))
  const byStatus = (...keys: string[]) => {
    const counts: Record<string, number> = {}
    for (const r of read)
      for (const key of keys) {
        const status = r.asked[key]?.status
        if (status !== undefined) counts[status] = (counts[status] ?? 0) + 1
      }
    return counts
  }
  const filesWith = (key: string, status: number | string) => read.filter((r) => r.asked[key]?.status === status).map((r) => r.file)
  const drawnMs = read
    .flatMap((r) => Object.entries(r.asked).flatMap(([key, asked]) => (key !== '1/text' && asked.status === 200 ? [asked.ms] : [])))
    .sort((a, b) => a - b)
  const textMs = read.flatMap((r) => (r.asked['1/text']?.status === 200 ? [r.asked['1/text'].ms] : [])).sort((a, b) => a - b)
  const others = [...new Set(read.flatMap((r) => Object.values(r.asked).map((a) => a.status)))].filter((s) => s !== 200 && s !== 422)
  return {
    pdfs: read.length,
    linksRefused: read.filter((r) => r.linkStatus !== undefined).length,
    pageOne: byStatus('1'),
    pageOneCannotBeDrawn: filesWith('1', 422),
    // Where the link card and page 1 disagree: both are drawn by PDFium from page 1, at different sizes.
    // PDFs without page 1 from PDFium (422 or 404) that pdf.js opens with pages: a viewer allowed the PDF could
    // still show them (run.ts asks pdf.js after the run).
    pageOneNotDrawnButPdfjsOpens: read
      .filter((r) => typeof r.pdfjs === 'object' && 'pages' in r.pdfjs && Number(r.pdfjs.pages) > 0)
      .map((r) => r.file),
    pageOneDrawnCardPlaceholder: read.filter((r) => r.asked['1']?.status === 200 && r.preview === 'placeholder').map((r) => r.file),
    pageOneRefusedCardDrawn: read.filter((r) => r.asked['1']?.status === 422 && r.preview === 'rendered').map((r) => r.file),
    otherStatuses: Object.fromEntries(
      others.map((status) => [status, read.filter((r) => Object.values(r.asked).some((a) => a.status === status)).map((r) => r.file)]),
    ),
    retriedAfter503: read.filter((r) => Object.values(r.asked).some((a) => a.tries > 1)).length,
    sharePage: {
      pageCounts: read.filter((r) => r.pages !== undefined).length,
      problems: Object.fromEntries(
        [...new Set(read.flatMap((r) => (r.problem ? [r.problem] : [])))].map((p) => [p, read.filter((r) => r.problem === p).length]),
      ),
      notOk: read.filter((r) => r.share !== undefined && r.share !== 200).map((r) => `${r.file}: ${r.share}`),
    },
    pagesTwoAndThree: byStatus('2', '3'),
    drawn: { pages: drawnMs.length, p50Ms: percentile(drawnMs, 0.5), p95Ms: percentile(drawnMs, 0.95), maxMs: drawnMs.at(-1) ?? 0 },
    text: { ...byStatus('1/text'), p50Ms: percentile(textMs, 0.5), p95Ms: percentile(textMs, 0.95), maxMs: textMs.at(-1) ?? 0 },
  }
}
