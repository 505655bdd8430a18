import { afterAll, expect, test } from 'bun:test'
import { makePdf } from '../../scripts/support/pdf'
import { BACKEND_HEADER } from '../../scripts/support/load-balancer'
import { startInstances } from '../../scripts/support/instances'

// Three server processes on one database and bucket behind HAProxy with the configuration of docs/scale-out.md
// (scripts/support/load-balancer.ts), one of them killed with -9 while clients upload and replace, every write with
// an Idempotency-Key, and each client sending a write again, with its key, whenever its answer was lost (the
// connection cut, a 502 from the balancer) or the key was still held (409, after Retry-After). What must hold:
// not one write done twice, not one acknowledged write lost.
const instances = await startInstances({
  count: 3,
  env: {
    PDFSHARE_RATE_LIMIT_API: '0',
    PDFSHARE_MAX_UPLOADS: '64',
    PDFSHARE_MAX_UPLOADS_PER_USER: '64',
    PDFSHARE_MAX_VERSIONS: '100', // every replacement's version stays, so they can be counted
  },
})
afterAll(() => instances.stop())
const lb = instances.balancer.url

expect((await instances.cli(['user', 'add', 'alice'])).code).toBe(0)
const issued = await instances.cli(['token', 'issue', 'alice', '--ttl', 'never'])
const auth = { authorization: `Bearer ${issued.stdout.trim()}` }

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

function pdfForm(bytes: Uint8Array<ArrayBuffer>, title?: string): FormData {
  const data = new FormData()
  data.append('file', new File([bytes], 'report.pdf', { type: 'application/pdf' }))
  if (title) data.append('title', title)
  return data
}

type Outcome = { status: number; body: { data: { id: string; sha256: string; title: string } }; sends: number; replayed: boolean }
const tally = { sends: 0, lost: 0, busy: 0, replayed: 0, byBackend: new Map<string, number>() }

/** Sends one write until it has a final answer, with the same key every time, as a careful client does. */
async function sendUntilAnswered(method: string, path: string, body: () => FormData, deadline: number): Promise<Outcome> {
  const key = crypto.randomUUID()
  for (let sends = 1; ; sends++) {
    tally.sends++
    if (performance.now() > deadline) throw new Error(`${method} ${path} had no answer after ${sends - 1} sends`)
    let response: Response
    try {
      response = await fetch(`${lb}${path}`, {
        method,
        headers: { ...auth, 'idempotency-key': key },
        body: body(),
        signal: AbortSignal.timeout(30_000),
      })
    } catch {
      tally.lost++ // the connection was cut: the write may or may not have been done
      continue
    }
    const backend = response.headers.get(BACKEND_HEADER) ?? '?'
    tally.byBackend.set(backend, (tally.byBackend.get(backend) ?? 0) + 1)
    if (response.status === 502 || response.status === 503) {
      tally.lost++
      await response.body?.cancel()
      continue
    }
    if (response.status === 409) {
      tally.busy++ // the key's first send is still held (by the killed instance: until its lease lapses)
      await Bun.sleep(Math.min(Number(response.headers.get('retry-after') ?? 1), 2) * 1000)
      await response.body?.cancel()
      continue
    }
    const replayed = response.headers.get('idempotent-replayed') === 'true'
    if (replayed) tally.replayed++
    return { status: response.status, body: await response.json(), sends, replayed }
  }
}

test('kill -9 during keyed uploads and replacements, every lost answer sent again with its key: nothing done twice, nothing acknowledged lost', async () => {
  const KILLED = 1
  const uploads = new Map<string, { sha: string; id: string }>() // title → what its 201 said
  const replaced = new Map<string, { replacements: number; sha: string }>() // file id → its acknowledged replacements
  const busyFiles = new Set<string>()
  let tag = 0
  let writes = 0
  let killedAt = Number.POSITIVE_INFINITY
  let restarted = false
  const began = performance.now()
  const deadline = began + 90_000

  const worker = async () => {
    while (!restarted || performance.now() < killedAt + 6000) {
      if (performance.now() > began + 40_000) break
      const idle = [...uploads.values()].map((file) => file.id).filter((id) => !busyFiles.has(id))
      if (Math.random() < 0.7 || idle.length === 0) {
        const title = `k${++tag}`
        const bytes = makePdf({ text: () => title, paddingBytes: Math.floor(Math.random() * 300_000) })
        const answer = await sendUntilAnswered('POST', '/api/files/upload', () => pdfForm(bytes, title), deadline)
        expect(answer.status).toBe(201)
        expect(answer.body.data.sha256).toBe(sha256(bytes))
        expect(answer.body.data.title).toBe(title)
        uploads.set(title, { sha: sha256(bytes), id: answer.body.data.id })
        replaced.set(answer.body.data.id, { replacements: 0, sha: sha256(bytes) })
      } else {
        const id = idle[Math.floor(Math.random() * idle.length)]!
        busyFiles.add(id)
        const bytes = makePdf({ text: () => `r${++tag}`, paddingBytes: Math.floor(Math.random() * 300_000) })
        const answer = await sendUntilAnswered('PUT', `/api/files/${id}`, () => pdfForm(bytes), deadline)
        expect(answer.status).toBe(200)
        expect(answer.body.data.sha256).toBe(sha256(bytes))
        const entry = replaced.get(id)!
        replaced.set(id, { replacements: entry.replacements + 1, sha: sha256(bytes) })
        busyFiles.delete(id)
      }
      writes++
    }
  }
  const killer = async () => {
    while (writes < 60 && performance.now() < began + 8000) await Bun.sleep(20)
    killedAt = performance.now()
    await instances.kill(KILLED)
    await Bun.sleep(2000)
    await instances.restart(KILLED)
    restarted = true
  }
  await Promise.all([killer(), ...Array.from({ length: 6 }, worker)])
  const seconds = ((performance.now() - began) / 1000).toFixed(1)

  // What the instances hold, read through the balancer.
  const listed: { id: string; title: string; sha256: string }[] = []
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
    const page = await (await fetch(`${lb}/api/files?limit=100${query}`, { headers: auth })).json()
    listed.push(...page.data)
    cursor = page.nextCursor
  }
  const titles = listed.map((file) => file.title)
  const twice = titles.filter((title, index) => titles.indexOf(title) !== index)
  expect(twice).toEqual([]) // no upload stored twice
  expect(listed.length).toBe(uploads.size) // and none stored that was not acknowledged
  for (const [title, upload] of uploads) {
    const file = listed.find((candidate) => candidate.id === upload.id)
    expect(file?.title).toBe(title) // every acknowledged upload is there
  }
  let versionsChecked = 0
  for (const [id, entry] of replaced) {
    const file = listed.find((candidate) => candidate.id === id)!
    expect(file.sha256).toBe(entry.sha) // the last acknowledged replacement is what it serves
    const versions = (await (await fetch(`${lb}/api/files/${id}/versions`, { headers: auth })).json()).data
    expect(versions).toHaveLength(1 + entry.replacements) // one version per replacement: none made twice
    versionsChecked += versions.length
  }
  const verify = await instances.cli(['verify'])
  expect(verify.stdout).not.toContain('problem: ')
  expect(verify.code).toBe(0)
  const replacements = [...replaced.values()].reduce((sum, entry) => sum + entry.replacements, 0)
  console.log(
    `keyed writes under kill -9: ${uploads.size} uploads and ${replacements} replacements acknowledged in ${seconds} s, ` +
      `${tally.sends} sends (${tally.lost} answers lost, ${tally.busy} 409 while a key was held, ${tally.replayed} replayed answers); ` +
      `answers by instance ${JSON.stringify(Object.fromEntries(tally.byBackend))}; ${listed.length} files, ${versionsChecked} versions checked`,
  )
  // The kill cut writes short: some answers were lost, and their retries found their keys.
  expect(tally.lost).toBeGreaterThan(0)
}, 150_000)
