import { afterAll, expect, test } from 'bun:test'
import { makePdf } from '../../scripts/support/pdf'
import { BACKEND_HEADER } from '../../scripts/support/load-balancer'
import { startInstances } from '../../scripts/support/instances'

// Three real server processes on one PostgreSQL database and one bucket, behind HAProxy (round robin): what a
// scaled-out install promises, checked through the balancer as a client sees it.
const instances = await startInstances({
  count: 3,
  env: { PDFSHARE_RATE_LIMIT_API: '0', PDFSHARE_RATE_LIMIT_SHARE: '0', PDFSHARE_MAX_UPLOADS: '64', PDFSHARE_MAX_UPLOADS_PER_USER: '64' },
})
afterAll(() => instances.stop())
const lb = instances.balancer.url

expect((await instances.cli(['user', 'add', 'alice'])).code).toBe(0)
const issued = await instances.cli(['token', 'issue', 'alice', '--ttl', 'never'])
expect(issued.code).toBe(0)
const token = issued.stdout.trim()
const auth = { authorization: `Bearer ${token}` }

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
const backendOf = (response: Response) => response.headers.get(BACKEND_HEADER) ?? '?'

function pdfForm(bytes: Uint8Array<ArrayBuffer>, title?: string): FormData {
  const data = new FormData()
  data.append('file', new File([bytes], 'report.pdf', { type: 'application/pdf' }))
  if (title) data.append('title', title)
  return data
}

/** Sends `count` requests one after another (round robin: they cycle through the instances); statuses and backends. */
async function repeat(count: number, send: (i: number) => Promise<Response>) {
  const answers: { status: number; backend: string; response: Response }[] = []
  for (let i = 0; i < count; i++) {
    const response = await send(i)
    answers.push({ status: response.status, backend: backendOf(response), response })
  }
  return answers
}
const backendsOf = (answers: { backend: string }[]) => new Set(answers.map((answer) => answer.backend))

test('the API and share pages work through the balancer, every instance serving', async () => {
  const seen = new Set<string>()
  const bytes = makePdf({ text: () => 'scaled out', paddingBytes: 50_000 })
  const uploaded = await fetch(`${lb}/api/files/upload`, { method: 'POST', headers: auth, body: pdfForm(bytes, 'first') })
  expect(uploaded.status).toBe(201)
  seen.add(backendOf(uploaded))
  const file = (await uploaded.json()).data
  expect(file.sha256).toBe(sha256(bytes))
  expect(file.shareUrl.startsWith(`${lb}/s/`)).toBe(true) // the public URL is the balancer's
  const slug = file.shareUrl.slice(`${lb}/s/`.length)

  // Every instance lists and reads the file another one stored.
  const lists = await repeat(3, () => fetch(`${lb}/api/files`, { headers: auth }))
  const reads = await repeat(3, () => fetch(`${lb}/api/files/${file.id}`, { headers: auth }))
  for (const answer of [...lists, ...reads]) expect(answer.status).toBe(200)
  for (const answer of lists) expect((await answer.response.json()).data.map((f: { id: string }) => f.id)).toEqual([file.id])
  for (const answer of reads) expect((await answer.response.json()).data.sha256).toBe(file.sha256)
  expect(backendsOf([...lists, ...reads])).toEqual(new Set(['s1', 's2', 's3']))

  // Range reads of the share link's bytes, from the bucket, on each instance.
  const ranges = await repeat(3, () => fetch(`${lb}/s/${slug}/file`, { headers: { range: 'bytes=100-1099' } }))
  for (const answer of ranges) {
    expect(answer.status).toBe(206)
    expect(new Uint8Array(await answer.response.arrayBuffer())).toEqual(bytes.slice(100, 1100))
  }
  expect(backendsOf(ranges).size).toBe(3)

  // A replacement on one instance is what every instance serves next.
  const next = makePdf({ text: () => 'replaced', paddingBytes: 60_000 })
  const replaced = await fetch(`${lb}/api/files/${file.id}`, { method: 'PUT', headers: auth, body: pdfForm(next) })
  expect(replaced.status).toBe(200)
  seen.add(backendOf(replaced))
  const contents = await repeat(3, () => fetch(`${lb}/api/files/${file.id}/content`, { headers: auth }))
  for (const answer of contents) expect(sha256(new Uint8Array(await answer.response.arrayBuffer()))).toBe(sha256(next))
  expect(backendsOf(contents).size).toBe(3)

  // Views: three visitors (one address, the balancer's, three browsers), each loading the page on all three
  // instances without sending the cookie back: each is counted once, whichever instance saw them first.
  for (const visitor of ['Firefox/130.0', 'Chrome/129.0', 'Safari/605.1.15']) {
    const userAgent = `Mozilla/5.0 (X11; Linux x86_64) ${visitor}`
    const pages = await repeat(3, () => fetch(`${lb}/s/${slug}`, { headers: { 'user-agent': userAgent } }))
    for (const answer of pages) expect(answer.status).toBe(200)
    expect(backendsOf(pages).size).toBe(3)
  }
  const counted = await repeat(3, () => fetch(`${lb}/api/files/${file.id}`, { headers: auth }))
  for (const answer of counted) expect((await answer.response.json()).data.views).toBe(3)

  // A token revoked on one instance is refused at once by every instance, also one that had it verified.
  const second = await (
    await fetch(`${lb}/api/tokens`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'spare' }),
    })
  ).json()
  const spare = { authorization: `Bearer ${second.data.token}` }
  for (const answer of await repeat(3, () => fetch(`${lb}/api/me`, { headers: spare }))) expect(answer.status).toBe(200)
  const revoked = await fetch(`${lb}/api/tokens/${second.data.id}`, { method: 'DELETE', headers: auth })
  expect(revoked.status).toBe(200)
  const refusals = await repeat(9, () => fetch(`${lb}/api/me`, { headers: spare }))
  expect(refusals.map((answer) => answer.status)).toEqual(Array(9).fill(401))
  expect(backendsOf(refusals).size).toBe(3)

  // A link good for one view, opened by ten new readers at once across the instances: exactly one gets it.
  const created = await fetch(`${lb}/api/files/${file.id}/links`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ maxViews: 1 }),
  })
  expect(created.status).toBe(201)
  const limited = (await created.json()).data
  const readers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => fetch(limited.url, { headers: { 'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Reader/${i}` } })),
  )
  const statuses = readers.map((response) => response.status)
  expect(statuses.filter((status) => status === 200)).toHaveLength(1)
  expect(backendsOf(readers.map((response) => ({ backend: backendOf(response) }))).size).toBe(3)
  const linkAfter = await (await fetch(`${lb}/api/links/${limited.id}`, { headers: auth })).json()
  expect(linkAfter.data.views).toBe(1)

  // A delete on one instance: gone on every instance, for the API and the share page.
  const deleted = await fetch(`${lb}/api/files/${file.id}`, { method: 'DELETE', headers: auth })
  expect(deleted.status).toBe(200)
  seen.add(backendOf(deleted))
  for (const answer of await repeat(3, () => fetch(`${lb}/api/files/${file.id}/content`, { headers: auth })))
    expect(answer.status).toBe(404)
  for (const answer of await repeat(3, () => fetch(`${lb}/s/${slug}`))) expect(answer.status).toBe(404)
  console.log(
    `through the balancer: writes served by ${[...seen].sort().join(', ')}; ten readers of a 1-view link got ${statuses.join(' ')}`,
  )
}, 30_000)

type Known = { state: 'present'; candidates: Set<string> } | { state: 'deleted' } | { state: 'maybe-deleted'; candidates: Set<string> }
type Attempt = {
  op: 'upload' | 'replace' | 'delete'
  start: number
  end: number
  acknowledged: boolean
  status: number | 'no answer'
  backend: string
}

test('kill -9 of one instance during concurrent writes: no acknowledged write lost, nothing torn, the others keep serving', async () => {
  const KILLED = 1 // s2
  const known = new Map<string, Known>()
  const pendingUploads = new Map<string, string>() // title → sha256 of bytes sent, for uploads never acknowledged
  const busy = new Set<string>() // two workers never write one file at once, so acknowledgements have one order
  const attempts: Attempt[] = []
  let killAt = Number.POSITIVE_INFINITY // the signal sent
  let deadAt = Number.POSITIVE_INFINITY // the process gone
  let restartBeganAt = Number.POSITIVE_INFINITY
  let restartedAt = Number.POSITIVE_INFINITY
  let tag = 0
  const began = performance.now()
  const deadline = began + 90_000
  const present = () => [...known].filter(([id, entry]) => entry.state === 'present' && !busy.has(id)).map(([id]) => id)

  const attempt = async (op: Attempt['op'], send: () => Promise<Response>, ok: (response: Response) => Promise<boolean>) => {
    const start = performance.now()
    let status: Attempt['status'] = 'no answer'
    let backend = '?'
    let acknowledged = false
    try {
      const response = await send()
      status = response.status
      backend = backendOf(response)
      acknowledged = await ok(response)
    } catch {}
    attempts.push({ op, start, end: performance.now(), acknowledged, status, backend })
  }

  const worker = async () => {
    // Until a few seconds after the restart (so the restarted instance starts while the others commit), within 90 s.
    while (performance.now() < Math.min(deadline, restartedAt + 3000)) {
      const ids = present()
      const roll = Math.random()
      if (roll < 0.5 || ids.length < 3) {
        const title = `t${++tag}`
        const bytes = makePdf({ text: () => title, paddingBytes: Math.floor(Math.random() * 400_000) })
        pendingUploads.set(title, sha256(bytes))
        await attempt(
          'upload',
          () => fetch(`${lb}/api/files/upload`, { method: 'POST', headers: auth, body: pdfForm(bytes, title) }),
          async (response) => {
            if (response.status !== 201) return false
            const { data } = await response.json()
            if (data.sha256 !== sha256(bytes)) throw new Error(`upload ${title} acknowledged with another hash`)
            pendingUploads.delete(title)
            known.set(data.id, { state: 'present', candidates: new Set([data.sha256]) })
            return true
          },
        )
      } else {
        const id = ids[Math.floor(Math.random() * ids.length)]!
        busy.add(id)
        const entry = known.get(id) as { state: 'present'; candidates: Set<string> }
        if (roll < 0.8) {
          const bytes = makePdf({ text: () => `r${++tag}`, paddingBytes: Math.floor(Math.random() * 400_000) })
          entry.candidates.add(sha256(bytes)) // from now on the old or the new bytes may be served
          await attempt(
            'replace',
            () => fetch(`${lb}/api/files/${id}`, { method: 'PUT', headers: auth, body: pdfForm(bytes) }),
            async (response) => {
              if (response.status !== 200) return false
              known.set(id, { state: 'present', candidates: new Set([(await response.json()).data.sha256]) })
              return true
            },
          )
        } else {
          known.set(id, { state: 'maybe-deleted', candidates: entry.candidates })
          await attempt(
            'delete',
            () => fetch(`${lb}/api/files/${id}`, { method: 'DELETE', headers: auth }),
            // Only a 200: a 404 is this DELETE done twice, sent again to another instance after the killed one had done
            // it (the balancer answers 502 instead, docs/scale-out.md; test/scale/balancer-retries.test.ts).
            async (response) => {
              if (response.status !== 200) return false
              known.set(id, { state: 'deleted' })
              return true
            },
          )
        }
        busy.delete(id)
      }
    }
  }
  const killer = async () => {
    // Under way: after 150 writes (about 3 s on this 2-core machine), or 6 s at most.
    while (attempts.length < 150 && performance.now() < began + 6000) await Bun.sleep(20)
    killAt = performance.now()
    await instances.kill(KILLED)
    deadAt = performance.now()
    // Down until the other two have answered a few writes begun after the death: counted, not timed (on a loaded
    // machine one write can take longer than a fixed pause), within 30 s.
    const downSince = performance.now()
    while (attempts.filter((a) => a.start > deadAt).length < 4 && performance.now() < downSince + 30_000) await Bun.sleep(50)
    restartBeganAt = performance.now()
    await instances.restart(KILLED)
    restartedAt = performance.now()
  }
  await Promise.all([killer(), ...Array.from({ length: 4 }, worker)])
  const seconds = ((performance.now() - began) / 1000).toFixed(1)

  // The model against what the instances serve, read through the balancer (so from all three).
  const listed = new Map<string, { sha256: string; fileSize: number; title: string }>()
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
    const page = await (await fetch(`${lb}/api/files?limit=100${query}`, { headers: auth })).json()
    for (const file of page.data) listed.set(file.id, file)
    cursor = page.nextCursor
  }
  const violations: string[] = []
  const servedBy = new Set<string>()
  for (const [id, file] of listed) {
    let entry = known.get(id)
    if (!entry) {
      const sent = pendingUploads.get(file.title)
      if (!sent) violations.push(`file ${id} (${file.title}) exists but was never uploaded`)
      entry = { state: 'present', candidates: new Set(sent ? [sent] : []) }
    }
    if (entry.state === 'deleted') violations.push(`file ${id}: its delete was acknowledged, it is still listed`)
    const response = await fetch(`${lb}/api/files/${id}/content`, { headers: auth })
    servedBy.add(backendOf(response))
    const bytes = new Uint8Array(await response.arrayBuffer())
    if (sha256(bytes) !== file.sha256 || bytes.length !== file.fileSize)
      violations.push(`file ${id} serves bytes that are not its row's (torn)`)
    if (entry.state !== 'deleted' && !entry.candidates.has(sha256(bytes)))
      violations.push(`file ${id} serves neither an acknowledged nor an in-flight version`)
  }
  for (const [id, entry] of known) {
    if (entry.state === 'present' && !listed.has(id)) violations.push(`file ${id}: acknowledged, and gone`)
  }
  const verify = await instances.cli(['verify'])

  // Failures: only requests that were in flight on the killed instance when it died.
  const failed = attempts.filter((a) => !a.acknowledged)
  const inFlightAtKill = attempts.filter((a) => a.start < deadAt && a.end > killAt)
  const whileDown = attempts.filter((a) => a.start > deadAt && a.end < restartBeganAt)
  // Writes acknowledged by the other instances while the restarted one swept the bucket at its start.
  const duringRestart = attempts.filter((a) => a.acknowledged && a.end > restartBeganAt && a.start < restartedAt).length
  const count = (op: Attempt['op']) => attempts.filter((a) => a.op === op && a.acknowledged).length
  console.log(
    `kill -9 under load: ${attempts.length} writes in ${seconds} s (${count('upload')} uploads, ${count('replace')} replacements, ${count('delete')} deletes acknowledged); ` +
      `s2 killed at ${((killAt - began) / 1000).toFixed(1)} s, back at ${((restartedAt - began) / 1000).toFixed(1)} s; ` +
      `${failed.length} failed (${inFlightAtKill.length} writes were in flight as s2 died; the failed: ${failed.map((a) => `${a.op} ${a.status}`).join(', ') || 'none'}); ` +
      `${whileDown.length} writes while s2 was down (${whileDown.filter((a) => !a.acknowledged).length} failed); ${listed.size} files checked (served by ${[...servedBy].sort().join(', ')}); ` +
      `${duringRestart} writes acknowledged while s2 started; verify: ${verify.stdout.trim().split('\n').at(-1)}`,
  )
  expect(violations).toEqual([])
  // verify finds every file and kept version intact. A blob no row points at is only what a write cut off by the
  // kill had stored before its row, at most one per write in flight there: on a shared database verify reports
  // such a young blob and leaves it (it cannot tell it from another instance's upload in progress).
  expect(verify.stdout).toMatch(/^ok: /m)
  expect(verify.code).toBe(0)
  const unreferencedLines = verify.stdout.split('\n').filter((line) => line.startsWith('unreferenced: '))
  for (const line of unreferencedLines) expect(line).toContain('left alone')
  const unreferenced = unreferencedLines.length
  // (A DELETE whose rows went before the kill and its blob not counts too.)
  expect(unreferenced).toBeLessThanOrEqual(inFlightAtKill.length)
  expect(verify.stdout).not.toContain('problem: ')
  for (const failure of failed) {
    expect(failure.start).toBeLessThan(deadAt)
    expect(failure.end).toBeGreaterThan(killAt)
    if (failure.backend !== '?') expect(failure.backend).toBe(instances.balancer.names[KILLED]!)
  }
  expect(servedBy).toEqual(new Set(['s1', 's2', 's3']))
  expect(whileDown.length).toBeGreaterThan(0)
  expect(whileDown.every((a) => a.acknowledged)).toBe(true)

  // The restarted instance's sweep moved nothing, though the others were committing uploads as it started.
  const restartLog = instances.servers[KILLED]!.stderr()
  expect(restartLog).not.toMatch(/moved \d+ unreferenced/)
  expect(duringRestart).toBeGreaterThan(0)
  const bucket = new Bun.S3Client({
    endpoint: instances.env.PDFSHARE_S3_ENDPOINT,
    bucket: instances.env.PDFSHARE_S3_BUCKET,
    accessKeyId: instances.env.PDFSHARE_S3_ACCESS_KEY_ID,
    secretAccessKey: instances.env.PDFSHARE_S3_SECRET_ACCESS_KEY,
    region: instances.env.PDFSHARE_S3_REGION,
  })
  expect((await bucket.list({ prefix: 'orphans/' })).contents ?? []).toEqual([])
}, 180_000)
