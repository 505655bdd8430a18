import { makePdf } from '../support/pdf'
import { sharedServer } from './share'
import { median } from './support'

export type KeyedUploads = {
  /** Median ms of one upload of a small PDF without a key, with a new key, and of a replay of a kept answer. */
  unkeyedMs: number
  keyedMs: number
  replayMs: number
  /** Median ms of one JSON metadata PUT, without and with a key (a write without a body to receive). */
  putMs: number
  keyedPutMs: number
  samples: number
}

/**
 * What an Idempotency-Key costs (docs/api.md, Retrying writes): small uploads (a 20 KB PDF, where the key's own
 * statements weigh most) one after another against the binary on the embedded database, without a key, each
 * with a new key (the claim, the answer kept in the write's transaction, the release), and repeats of one key
 * (a replay: the claim finds the answer, the body is read for its digest, nothing is written). The kinds take
 * turns in rounds, so a machine's drift touches them alike.
 */
export async function keyedUploads(binary: string, rounds = 6, perRound = 25): Promise<KeyedUploads> {
  // The binary on a fresh data dir with one user and a token (share.ts), as the other benches start it.
  const server = await sharedServer(binary, 'idempotency', { PDFSHARE_MAX_UPLOADS_PER_USER: '64' })
  const { token } = server
  const pdf = makePdf({ text: () => 'keyed', paddingBytes: 20_000 })
  const upload = async (key?: string) => {
    const body = new FormData()
    body.append('file', new File([pdf], 'bench.pdf', { type: 'application/pdf' }))
    const headers: Record<string, string> = { authorization: `Bearer ${token}` }
    if (key) headers['idempotency-key'] = key
    const started = performance.now()
    const response = await fetch(`${server.url}/api/files/upload`, { method: 'POST', headers, body })
    await response.arrayBuffer()
    if (response.status !== 201) throw new Error(`upload answered ${response.status}`)
    return performance.now() - started
  }
  const put = async (id: string, key?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    if (key) headers['idempotency-key'] = key
    const started = performance.now()
    const response = await fetch(`${server.url}/api/files/${id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ title: key ?? 'plain' }),
    })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`PUT answered ${response.status}`)
    return performance.now() - started
  }
  try {
    const first = await fetch(`${server.url}/api/files/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'replayed' },
      body: (() => {
        const body = new FormData()
        body.append('file', new File([pdf], 'bench.pdf', { type: 'application/pdf' }))
        return body
      })(),
    })
    const { data } = (await first.json()) as { data: { id: string } }
    for (let i = 0; i < 10; i++) await upload() // warm up
    const times = { unkeyed: [] as number[], keyed: [] as number[], replay: [] as number[], put: [] as number[], keyedPut: [] as number[] }
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < perRound; i++) times.unkeyed.push(await upload())
      for (let i = 0; i < perRound; i++) times.keyed.push(await upload(crypto.randomUUID()))
      for (let i = 0; i < perRound; i++) times.replay.push(await upload('replayed'))
      for (let i = 0; i < perRound; i++) times.put.push(await put(data.id))
      for (let i = 0; i < perRound; i++) times.keyedPut.push(await put(data.id, crypto.randomUUID()))
    }
    return {
      unkeyedMs: median(times.unkeyed),
      keyedMs: median(times.keyed),
      replayMs: median(times.replay),
      putMs: median(times.put),
      keyedPutMs: median(times.keyedPut),
      samples: rounds * perRound,
    }
  } finally {
    await server.stop()
  }
}

if (import.meta.main) {
  const { ensureBinary } = await import('./support')
  console.log(await keyedUploads(ensureBinary()))
}
