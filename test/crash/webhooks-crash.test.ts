import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { makePdf } from '../../scripts/support/pdf'
import { run, startServer } from '../../scripts/support/process'
import { bearer } from '../support/bearer'
import { form } from '../support/harness'
import { eventually, startReceiver } from '../support/webhook-receiver'

type Event = { type: string; data: { file: { id: string; title: string; sha256: string } } }

// A real pdfshare process from source (the dist binary may predate the webhooks), killed with SIGKILL while a
// slow receiver holds deliveries in flight, then started again on the same data dir.
test('kill -9 mid-delivery: after a restart every committed upload is announced at least once, signed, and nothing else is', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-webhooks-crash-'))
  const env = { PDFSHARE_WEBHOOK_ALLOW_PRIVATE: '1', PDFSHARE_RATE_LIMIT_API: '0' }
  // Until the kill, the receiver answers nothing: every delivery it has seen is still in flight when the process
  // dies (a fixed hold of 1.5 s could end before a loaded machine got to the kill). After it, it answers at once.
  let killed: () => void = () => {}
  const kill = new Promise<void>((resolve) => (killed = resolve))
  const receiver = startReceiver(async () => {
    await kill
    return new Response(null, { status: 204 })
  })
  let server = await startServer(['--data', dataDir], { env })
  try {
    await run(['user', 'add', 'carol', '--data', dataDir])
    const token = (await run(['token', 'issue', 'carol', '--ttl', 'never', '--data', dataDir])).stdout.trim()
    const created = await fetch(`${server.url}/api/webhooks`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url(), events: ['file.uploaded'] }),
    })
    expect(created.status).toBe(201)
    const { secret } = (await created.json()).data as { secret: string }

    const upload = (title: string) =>
      fetch(`${server.url}/api/files/upload`, {
        method: 'POST',
        headers: bearer(token),
        body: form({ bytes: makePdf({ text: () => title }) }, { title }),
      })
    const acknowledged = new Map<string, string>() // title → file id
    for (let i = 0; i < 6; i++) {
      const response = await upload(`acked ${i}`)
      expect(response.status).toBe(201)
      acknowledged.set(`acked ${i}`, (await response.json()).data.id)
    }
    // Deliveries are in flight (the receiver holds them); more uploads are on their way; kill -9.
    await eventually(() => expect(receiver.received.length).toBeGreaterThan(0))
    const inFlightAtKill = receiver.received.map((request) => request.headers['webhook-id']!)
    const racing = [0, 1, 2].map((i) => upload(`racing ${i}`).catch(() => undefined))
    await Bun.sleep(5)
    server.proc.kill('SIGKILL')
    await server.proc.exited
    killed()
    for (const [i, answer] of (await Promise.all(racing)).entries()) {
      if (answer?.status === 201) acknowledged.set(`racing ${i}`, (await answer.json()).data.id)
    }

    server = await startServer(['--data', dataDir], { env })
    const filesNow = new Map<string, { id: string; sha256: string }>()
    for (const file of (await (await fetch(`${server.url}/api/files?limit=100`, { headers: bearer(token) })).json()).data)
      filesNow.set(file.title, file)
    for (const [title, id] of acknowledged) expect(filesNow.get(title)?.id, title).toBe(id) // the crash lost no acknowledged upload

    const announced = () => new Set(receiver.received.map((request) => (JSON.parse(request.body) as Event).data.file.title))
    await eventually(() => expect([...filesNow.keys()].filter((title) => !announced().has(title))).toEqual([]), 150_000)
    // Those in flight at the kill were claimed: they come due again once the lease (10 s limit + 5 s) is over.
    // pdfshare never saw their answer, so they are sent again: at least once.
    const sent = (id: string) => receiver.received.filter((request) => request.headers['webhook-id'] === id).length
    await eventually(() => expect(inFlightAtKill.filter((id) => sent(id) < 2)).toEqual([]), 150_000)
    for (const request of receiver.received) {
      const event = new Webhook(secret).verify(request.body, request.headers) as Event
      expect(event.type).toBe('file.uploaded')
      // Only committed files: an upload cut off by the kill before its commit sent nothing.
      expect(filesNow.get(event.data.file.title), event.data.file.title).toMatchObject({
        id: event.data.file.id,
        sha256: event.data.file.sha256,
      })
    }
    expect(await server.stop()).toBe(0)
  } finally {
    server.proc.kill('SIGKILL')
    receiver.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 400_000)
