/**
 * Crash loop: a real server takes concurrent uploads, replacements and deletes and is killed with SIGKILL at
 * a random moment, over and over. After every restart the client's model of what was acknowledged is checked
 * against what the server serves. The model:
 *
 * - an acknowledged upload (2xx received) must exist with exactly its bytes;
 * - an acknowledged replacement must serve the new bytes; an unacknowledged one the old or the new bytes;
 * - an acknowledged delete must stay deleted; an unacknowledged one may or may not have happened;
 * - an unacknowledged upload may or may not exist, but if it does, with exactly the bytes that were sent;
 * - metadata and bytes always belong together (the row's sha256 is the served bytes' hash: never a mix);
 * - after the restart no temp file and no unreferenced blob remains, and `pdfshare verify` passes.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { makePdf } from './pdf'
import { run, startServer } from './process'

type Known = { state: 'present'; candidates: Set<string> } | { state: 'deleted' } | { state: 'maybe-deleted'; candidates: Set<string> }

export type CrashStats = { rounds: number; acknowledgedWrites: number; checkedFiles: number; unacknowledged: number; violations: string[] }

/** A deterministic PRNG, so a failing seed can be replayed. */
function random(seed: number) {
  let state = seed >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 4294967296
  }
}

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

export async function crashLoop(options: {
  dataDir: string
  rounds: number
  seed: number
  program?: string[]
  log?: (line: string) => void
}): Promise<CrashStats> {
  const { dataDir } = options
  const rand = random(options.seed)
  const program = options.program
  await run(['user', 'add', 'crash', '--data', dataDir], { program })
  const token = (await run(['token', 'issue', 'crash', '--ttl', 'never', '--data', dataDir], { program })).stdout.trim()
  const auth = { authorization: `Bearer ${token}` }
  const env = { PDFSHARE_RATE_LIMIT_API: '0', PDFSHARE_MAX_UPLOADS: '64', PDFSHARE_MAX_UPLOADS_PER_USER: '64' }

  const known = new Map<string, Known>()
  const pendingUploads = new Map<string, string>() // title tag → sha256 of bytes sent, for uploads never acknowledged
  const stats: CrashStats = { rounds: 0, acknowledgedWrites: 0, checkedFiles: 0, unacknowledged: 0, violations: [] }
  const violation = (message: string) => stats.violations.push(`round ${stats.rounds}: ${message}`)
  let tag = 0

  for (let round = 1; round <= options.rounds; round++) {
    stats.rounds = round
    const server = await startServer(['--data', dataDir], { env, program })

    // 1. Check everything against the model.
    const listed = new Map<string, { sha256: string; title: string }>()
    for (let cursor: string | null = null, first = true; first || cursor; first = false) {
      const page: { data: { id: string; sha256: string; title: string }[]; nextCursor: string | null } = await (
        await fetch(`${server.url}/api/files?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: auth })
      ).json()
      for (const file of page.data) listed.set(file.id, file)
      cursor = page.nextCursor
    }
    for (const [id, file] of listed) {
      if (known.has(id)) continue
      const sent = pendingUploads.get(file.title)
      if (!sent) violation(`file ${id} exists but no upload of it was ever sent`)
      known.set(id, { state: 'present', candidates: new Set(sent ? [sent] : []) })
      pendingUploads.delete(file.title)
    }
    pendingUploads.clear() // uploads that did not survive are gone for good
    for (const [id, entry] of known) {
      const file = listed.get(id)
      if (entry.state === 'deleted') {
        if (file) violation(`file ${id} was deleted (acknowledged) but is listed again`)
        continue
      }
      if (!file) {
        if (entry.state === 'present') violation(`file ${id} was acknowledged but is gone`)
        known.set(id, { state: 'deleted' })
        continue
      }
      const response = await fetch(`${server.url}/api/files/${id}/content`, { headers: auth })
      const served = sha256(new Uint8Array(await response.arrayBuffer()))
      stats.checkedFiles++
      if (served !== file.sha256) violation(`file ${id} serves bytes (${served}) that do not match its metadata (${file.sha256})`)
      if (!entry.candidates.has(served)) violation(`file ${id} serves ${served}, none of the acknowledged or in-flight versions`)
      known.set(id, { state: 'present', candidates: new Set([served]) })
    }
    const leftovers = readdirSync(join(dataDir, 'tmp'))
    if (leftovers.length > 0) violation(`temp files left after restart: ${leftovers.join(', ')}`)
    const verify = await run(['verify', '--data', dataDir], { program })
    if (verify.code !== 0) violation(`verify failed: ${verify.stdout.trim().split('\n').slice(-3).join(' | ')}`)

    // 2. Concurrent writes, and a SIGKILL at a random moment while they run. Two workers never touch the same
    //    file at once: with concurrent replacements of one file the order of their acknowledgements need not be
    //    the order of their commits, and the model could not tell which version must win.
    const busy = new Set<string>()
    const ids = () => [...known].filter(([id, e]) => e.state === 'present' && !busy.has(id)).map(([id]) => id)
    const worker = async () => {
      for (;;) {
        const roll = rand()
        const present = ids()
        // Keep the store around 150 files, so every round can check every file within seconds.
        const uploadShare = present.length > 150 ? 0.3 : 0.55
        const replaceShare = uploadShare + 0.3
        try {
          if (roll < uploadShare || present.length === 0) {
            const title = `t${++tag}`
            const bytes = makePdf({ text: () => title, paddingBytes: Math.floor(rand() * 1_500_000) })
            pendingUploads.set(title, sha256(bytes))
            const response = await fetch(`${server.url}/api/files/upload`, { method: 'POST', headers: auth, body: formOf(bytes, title) })
            if (response.status !== 201) throw new Error(`upload answered ${response.status}`)
            const { data } = await response.json()
            pendingUploads.delete(title)
            known.set(data.id, { state: 'present', candidates: new Set([data.sha256]) })
            stats.acknowledgedWrites++
          } else if (roll < replaceShare) {
            const id = present[Math.floor(rand() * present.length)]!
            busy.add(id)
            const bytes = makePdf({ text: () => `r${++tag}`, paddingBytes: Math.floor(rand() * 1_500_000) })
            const entry = known.get(id) as { state: 'present'; candidates: Set<string> }
            entry.candidates.add(sha256(bytes)) // from now on either version may be served
            const response = await fetch(`${server.url}/api/files/${id}`, { method: 'PUT', headers: auth, body: formOf(bytes) })
            if (response.status === 200) {
              known.set(id, { state: 'present', candidates: new Set([(await response.json()).data.sha256]) })
              stats.acknowledgedWrites++
            }
            busy.delete(id)
          } else {
            const id = present[Math.floor(rand() * present.length)]!
            busy.add(id)
            const entry = known.get(id) as { state: 'present'; candidates: Set<string> }
            known.set(id, { state: 'maybe-deleted', candidates: entry.candidates })
            const response = await fetch(`${server.url}/api/files/${id}`, { method: 'DELETE', headers: auth })
            if (response.status === 200) {
              known.set(id, { state: 'deleted' })
              stats.acknowledgedWrites++
            }
            busy.delete(id)
          }
        } catch {
          stats.unacknowledged++
          return // the server is gone
        }
      }
    }
    const workers = Array.from({ length: 6 }, worker)
    // The kill comes once the round has had 1 to 3 writes acknowledged, then 30-430 ms later: so every round kills
    // writes in flight however slow the machine is (a fixed delay alone can end a round on a busy one before any
    // write was answered).
    const target = stats.acknowledgedWrites + 1 + Math.floor(rand() * 3)
    let stopped = false
    void server.proc.exited.then(() => (stopped = true))
    while (stats.acknowledgedWrites < target && !stopped) await Bun.sleep(5)
    await Bun.sleep(30 + Math.floor(rand() * 400))
    server.proc.kill('SIGKILL')
    await server.proc.exited
    await Promise.all(workers)
    options.log?.(`round ${round}: ${stats.acknowledgedWrites} acknowledged writes so far, ${known.size} files known`)
  }
  if (!existsSync(dataDir)) stats.violations.push('data dir vanished')
  return stats
}

function formOf(bytes: Uint8Array<ArrayBuffer>, title?: string): FormData {
  const data = new FormData()
  data.append('file', new File([bytes], 'crash.pdf', { type: 'application/pdf' }))
  if (title) data.append('title', title)
  return data
}
