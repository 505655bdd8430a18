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
