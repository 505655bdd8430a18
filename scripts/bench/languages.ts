import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { benchAccount, ROOT, serve } from './support'
import { CONNECTIONS, LIMITER_ON, LOAD_CPU, type Ratio, ROUNDS, ratioOf, SECONDS, SERVER_CPU } from './throughput'
import { distinctVisitors, wrk } from './wrk'

/** What a German-speaking Swiss browser sends: the header is parsed, its ranges sorted by q, and `de-CH` falls back to `de`. */
export const NEGOTIATED = 'de-CH,de;q=0.9,en;q=0.8'

/**
 * The share page with Accept-Language negotiation (docs/languages.md): `GET /s/:slug` from a browser sending
 * NEGOTIATED (German chosen, the page and its viewer's messages in German) against the same page with no
 * Accept-Language (the instance's default, English: the page as it was before languages were negotiated), every
 * request a new counted visitor, the server on one core. The two alternate for ROUNDS rounds; `ratio` is the
 * median of the rounds' negotiated / plain.
 */
export async function negotiationBench(binary: string): Promise<Ratio & { errors: number }> {
  const { dataDir, token } = benchAccount(binary, 'languages')
  const { proc, url } = await serve(
    binary,
    dataDir,
    { PDFSHARE_RATE_LIMIT_API: LIMITER_ON, PDFSHARE_RATE_LIMIT_SHARE: LIMITER_ON, PDFSHARE_TRUST_PROXY: '1' },
    SERVER_CPU,
  )
  try {
    const form = new FormData()
    form.append('file', new File([new TextEncoder().encode('%PDF-1.4\n%%EOF\n')], 'bench.pdf', { type: 'application/pdf' }))
    const uploaded = await fetch(`${url}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
    const { data } = (await uploaded.json()) as { data: { shareUrl: string } }
    const pageUrl = `${url}${new URL(data.shareUrl).pathname}`
    const german = { 'accept-language': NEGOTIATED }
    // The runs measure what they claim: German with the header, English without.
    const langOf = async (headers: Record<string, string>) =>
      /<html lang="([^"]+)"/.exec(await (await fetch(pageUrl, { headers })).text())?.[1]
    if ((await langOf(german)) !== 'de' || (await langOf({})) !== 'en') throw new Error('the page was not negotiated as expected')
    const run = (headers: Record<string, string>, seconds = SECONDS) =>
      wrk({ url: pageUrl, connections: CONNECTIONS, seconds, cpu: LOAD_CPU, script: distinctVisitors(), headers })
    run({}, 2)
    run(german, 2)
    const rounds = []
    for (let round = 0; round < ROUNDS; round++) rounds.push({ plain: run({}), negotiated: run(german) })
    return {
      ...ratioOf(rounds.map((r) => [r.negotiated.rps, r.plain.rps])),
      errors: rounds.reduce((sum, r) => sum + r.plain.errors + r.negotiated.errors, 0),
    }
  } finally {
    proc.kill('SIGTERM')
    await proc.exited
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.main) console.log(JSON.stringify(await negotiationBench(join(ROOT, 'dist', 'pdfshare')), null, 1))
