import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { benchAccount, median, ROOT, serve, serveRaw } from './support'
import { distinctVisitors, wrk, type WrkResult } from './wrk'

/** Server on core 0, wrk on core 1: "one server core", with the load generator never competing for it. */
export const SERVER_CPU = 0
export const LOAD_CPU = 1
export const CONNECTIONS = 64
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
/** Rate limits stay on (their bookkeeping is part of every request) but high enough never to refuse. */
export const LIMITER_ON = '100000000'
/**
 * `BENCH_METRICS=1` runs the servers with GET /metrics on (PDFSHARE_METRICS_TOKEN), so two runs, with and
 * without, give what recording the metrics costs a request (docs/operations.md, Metrics).
 */
const METRICS: Record<string, string> =
  process.env.BENCH_METRICS === '1' ? { PDFSHARE_METRICS_TOKEN: 'bench-metrics-token-0123456789' } : {}

export type Ratio = { ours: number; raw: number; ratio: number }
export type Throughput = {
  api: Ratio
  page: Ratio
  apiP99AtHalf: number
  apiP50AtHalf: number
  pageViews: number
  pageRequests: number
  errors: number
  /**
   * The same page runs against a second server with PDFSHARE_ANALYTICS_RETENTION=0 (no visit rows, no outbox
   * statement), alternated with the analytics-on runs: `ours` is analytics on, `raw` off, `ratio` on / off.
   */
  analytics: Ratio
  /**
   * The page of a link that asks for an address, for a reader holding its cookie (signed address checked
   * against the link's lists, the address kept in the visit): `ours` gated, `raw` the open link's page.
   */
  gated: Ratio
  /**
   * The same authenticated GET through a team token (its membership and role read with the token, the file the
   * team's): `ours` the team token, `raw` the personal token's runs.
   */
  team: Ratio
}

/**
 * Requests per second of pdfshare's hot paths against a raw Bun.serve doing the least work for the same kind
 * of answer: an authenticated GET /api/files/:id (token check, owner-scoped lookup, JSON envelope) against a
 * small JSON, and GET /s/:slug with view counting on (every request a new visitor, so every one is counted)
 * against an HTML page. Both servers run on the same core; runs alternate raw / ours for several rounds and
 * the ratio is the median of the rounds, because a shared machine's speed drifts by ±20 % within a minute.
 */
export async function throughput(binary: string): Promise<Throughput> {
  const { proc: raw, url: rawUrl } = await serveRaw(undefined, SERVER_CPU)
  const { dataDir, token } = benchAccount(binary, 'throughput')
  const { proc, url } = await serve(
    binary,
    dataDir,
    { PDFSHARE_RATE_LIMIT_API: LIMITER_ON, PDFSHARE_RATE_LIMIT_SHARE: LIMITER_ON, PDFSHARE_TRUST_PROXY: '1', ...METRICS },
    SERVER_CPU,
  )
  // The same server without reading analytics, on the same core, loaded only in its own runs.
  const { dataDir: offDir, token: offToken } = benchAccount(binary, 'throughput-analytics-off')
  const off = await serve(
    binary,
    offDir,
    {
      PDFSHARE_RATE_LIMIT_API: LIMITER_ON,
      PDFSHARE_RATE_LIMIT_SHARE: LIMITER_ON,
      PDFSHARE_TRUST_PROXY: '1',
      PDFSHARE_ANALYTICS_RETENTION: '0',
      ...METRICS,
    },
    SERVER_CPU,
  )
  try {
    const upload = async (base: string, bearer: string) => {
      const form = new FormData()
      form.append('file', new File([new TextEncoder().encode('%PDF-1.4\n%%EOF\n')], 'bench.pdf', { type: 'application/pdf' }))
      const response = await fetch(`${base}/api/files/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}` },
        body: form,
      })
      const { data } = (await response.json()) as { data: { shareUrl: string } }
      return `${base}${new URL(data.shareUrl).pathname}`
    }
    const pageOffUrl = await upload(off.url, offToken)
    const body = new FormData()
    body.append('file', new File([new TextEncoder().encode('%PDF-1.4\n%%EOF\n')], 'bench.pdf', { type: 'application/pdf' }))
    const uploaded = await fetch(`${url}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body })
    const { data } = (await uploaded.json()) as { data: { id: string; shareUrl: string } }
    const headers = { authorization: `Bearer ${token}` }
    const apiUrl = `${url}/api/files/${data.id}`
    const pageUrl = `${url}${new URL(data.shareUrl).pathname}`
    // A second link of the same file that asks for an address, and a reader's cookie for it.
    const gatedLink = await fetch(`${url}/api/files/${data.id}/links`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ access: 'email', allow: ['@example.com'] }),
    })
    const gatedUrl = `${url}${new URL(((await gatedLink.json()) as { data: { url: string } }).data.url).pathname}`
    const entered = await fetch(`${gatedUrl}/reader`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=reader%40example.com',
    })
    const gatedHeaders = { cookie: entered.headers.getSetCookie()[0]!.split(';')[0]! }
    // A team of the same user, a token acting for it, and a file the team owns.
    const team = await fetch(`${url}/api/teams`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench team' }),
    })
    const teamId = ((await team.json()) as { data: { id: string } }).data.id
    const teamToken = await fetch(`${url}/api/tokens`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'bench team', team: teamId }),
    })
    const teamHeaders = { authorization: `Bearer ${((await teamToken.json()) as { data: { token: string } }).data.token}` }
    const teamBody = new FormData()
    teamBody.append('file', new File([new TextEncoder().encode('%PDF-1.4\n%%EOF\n')], 'team.pdf', { type: 'application/pdf' }))
    const teamUpload = await fetch(`${url}/api/files/upload`, { method: 'POST', headers: teamHeaders, body: teamBody })
    const teamApiUrl = `${url}/api/files/${((await teamUpload.json()) as { data: { id: string } }).data.id}`
    const run = (target: string, extra: Partial<Parameters<typeof wrk>[0]> = {}) =>
      wrk({ url: target, connections: CONNECTIONS, seconds: SECONDS, cpu: LOAD_CPU, ...extra })

    // Warm up every path (JIT) before anything counts.
    for (const target of [`${rawUrl}/json`, `${rawUrl}/html`]) wrk({ url: target, connections: CONNECTIONS, seconds: 1, cpu: LOAD_CPU })
    wrk({ url: apiUrl, connections: CONNECTIONS, seconds: 2, cpu: LOAD_CPU, headers })
    wrk({ url: teamApiUrl, connections: CONNECTIONS, seconds: 2, cpu: LOAD_CPU, headers: teamHeaders })
    wrk({ url: pageUrl, connections: CONNECTIONS, seconds: 2, cpu: LOAD_CPU, script: distinctVisitors() })
    wrk({ url: pageOffUrl, connections: CONNECTIONS, seconds: 2, cpu: LOAD_CPU, script: distinctVisitors() })
    wrk({ url: gatedUrl, connections: CONNECTIONS, seconds: 2, cpu: LOAD_CPU, script: distinctVisitors(), headers: gatedHeaders })
    const before = await defaultLinkViews(apiUrl, headers)

    const rounds: {
      rawJson: WrkResult
      api: WrkResult
      team: WrkResult
      rawHtml: WrkResult
      page: WrkResult
      pageOff: WrkResult
      gated: WrkResult
    }[] = []
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push({
        rawJson: run(`${rawUrl}/json`),
        api: run(apiUrl, { headers }),
        team: run(teamApiUrl, { headers: teamHeaders }),
        rawHtml: run(`${rawUrl}/html`),
        page: run(pageUrl, { script: distinctVisitors() }),
        pageOff: run(pageOffUrl, { script: distinctVisitors() }),
        gated: run(gatedUrl, { script: distinctVisitors(), headers: gatedHeaders }),
      })
    }
    const apiMax = median(rounds.map((r) => r.api.rps))
    const atHalf = run(apiUrl, { headers, rate: apiMax / 2, seconds: SECONDS * 2 })
    const pageRequests = rounds.reduce((sum, r) => sum + r.page.requests, 0)
    return {
      api: ratioOf(rounds.map((r) => [r.api.rps, r.rawJson.rps])),
      page: ratioOf(rounds.map((r) => [r.page.rps, r.rawHtml.rps])),
      apiP50AtHalf: atHalf.p50,
      apiP99AtHalf: atHalf.p99,
      pageViews: (await defaultLinkViews(apiUrl, headers)) - before,
      pageRequests,
      errors: rounds.reduce(
        (sum, r) => sum + r.api.errors + r.team.errors + r.page.errors + r.pageOff.errors + r.gated.errors,
        atHalf.errors,
      ),
      analytics: ratioOf(rounds.map((r) => [r.page.rps, r.pageOff.rps])),
      gated: ratioOf(rounds.map((r) => [r.gated.rps, r.page.rps])),
      team: ratioOf(rounds.map((r) => [r.team.rps, r.api.rps])),
    }
  } finally {
    raw.kill()
    proc.kill('SIGTERM')
    off.proc.kill('SIGTERM')
    await Promise.all([raw.exited, proc.exited, off.proc.exited])
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(offDir, { recursive: true, force: true })
  }
}

export function ratioOf(pairs: [ours: number, raw: number][]): Ratio {
  return {
    ours: median(pairs.map((p) => p[0])),
    raw: median(pairs.map((p) => p[1])),
    ratio: median(pairs.map(([ours, raw]) => ours / raw)),
  }
}

/** The views of the file's default link (the page runs'; the gated runs go through another link). */
async function defaultLinkViews(apiUrl: string, headers: Record<string, string>): Promise<number> {
  const { data } = (await (await fetch(`${apiUrl}/links`, { headers })).json()) as { data: { isDefault: boolean; views: number }[] }
  return data.find((link) => link.isDefault)!.views
}

if (import.meta.main) console.log(JSON.stringify(await throughput(join(ROOT, 'dist', 'pdfshare')), null, 1))
