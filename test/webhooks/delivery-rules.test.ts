import { afterAll, describe, expect, test } from 'bun:test'
import { fairShare } from '../../src/core/webhooks/dispatcher'
import { sendDelivery } from '../../src/core/webhooks/send-delivery'
import { addressKind, targetOf } from '../../src/core/outbound/target-safety'

// The rules of one delivery attempt and of the dispatcher's slots, without a database.
describe('where a webhook may go', () => {
  test('only global unicast: every special-purpose range, and IPv4 carried inside IPv6, is refused', () => {
    const refused: [string, string][] = [
      ['::7f00:1', 'a loopback'], // IPv4-compatible 127.0.0.1
      ['::ffff:0:7f00:1', 'a loopback'], // IPv4-translated
      ['::ffff:127.0.0.1', 'a loopback'], // IPv4-mapped
      ['2002:7f00:1::', 'a loopback'], // 6to4 of 127.0.0.1
      ['2002:a00:1::5', 'a private'], // 6to4 of 10.0.0.1
      ['64:ff9b::7f00:1', 'a loopback'], // NAT64 of 127.0.0.1
      ['64:ff9b::a9fe:a9fe', 'a link-local'], // NAT64 of 169.254.169.254
      ['64:ff9b:1::1', 'a local NAT64'],
      ['fec0::1', 'a site-local'],
      ['fd12:3456::1', 'a private'],
      ['fe80::1', 'a link-local'],
      ['ff02::1', 'a multicast'],
      ['::', 'an unspecified'],
      ['::1', 'a loopback'],
      ['100::1', 'a reserved'], // discard-only, outside 2000::/3
      ['2001:db8::1', 'a documentation'],
      ['2001::1', 'a reserved (IETF protocol assignments, Teredo)'],
      ['3fff::1', 'a documentation'],
      ['198.18.0.1', 'a benchmarking'],
      ['198.19.255.255', 'a benchmarking'],
      ['192.0.0.1', 'a reserved (protocol assignments)'],
      ['192.0.2.1', 'a documentation'],
      ['198.51.100.7', 'a documentation'],
      ['203.0.113.9', 'a documentation'],
      ['192.88.99.1', 'a reserved (6to4 relay)'],
      ['255.255.255.255', 'a reserved'],
      ['100.100.100.100', 'a shared (CGNAT)'],
      ['172.31.0.1', 'a private'],
    ]
    for (const [address, kind] of refused) expect(addressKind(address), address).toBe(kind)
    for (const address of [
      '93.184.215.14',
      '8.8.8.8',
      '2606:4700::1111',
      '2a00:1450:4001::200e',
      '64:ff9b::5db8:d70e',
      '2002:5db8:d70e::1',
    ])
      expect(addressKind(address), address).toBeUndefined()
  })

  test('a name is resolved once per attempt: the attempt goes to the address that was checked; the owner is not told which', async () => {
    const resolveTo =
      (...addresses: string[]) =>
      async () =>
        addresses
    const url = new URL('https://hooks.example.test/in')
    expect(await targetOf(url, false, resolveTo('93.184.215.14'))).toEqual({ address: '93.184.215.14' })
    expect(await targetOf(url, false, resolveTo('93.184.215.14', '10.0.0.7'))).toEqual({
      refusal:
        'refused: hooks.example.test resolves to a non-public address; set PDFSHARE_WEBHOOK_ALLOW_PRIVATE=1 to allow loopback, private and link-local targets',
      detail: 'hooks.example.test resolves to 10.0.0.7, a private address',
    })
    expect(await targetOf(url, true, resolveTo('10.0.0.7'))).toEqual({ address: '10.0.0.7' })
  })
})

describe('one attempt', () => {
  const options = { allowPrivate: true, timeoutMs: 5_000, connectTimeoutMs: 300, now: Date.now, shutdown: new AbortController().signal }
  const delivery = { id: 'msg_1', payload: '{}', secret: 'whsec_dGVzdHRlc3R0ZXN0dGVzdA==' }

  test('connects to the resolved address, with the name in Host (a name that no DNS knows still arrives)', async () => {
    const seen: string[] = []
    const receiver = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: (request) => {
        seen.push(request.headers.get('host')!)
        return new Response(null, { status: 204 })
      },
    })
    afterAll(() => receiver.stop(true))
    const result = await sendDelivery(
      { ...delivery, url: `http://rebinding.invalid:${receiver.port}/in` },
      { ...options, resolve: async () => ['127.0.0.1'] },
    )
    expect(result).toEqual({ delivered: true, status: 204, error: null })
    expect(seen).toEqual([`rebinding.invalid:${receiver.port}`])
  })

  test('a receiver that never completes a connection gives up after the connect limit, not the whole attempt’s', async () => {
    // A listening socket that never accepts, with its backlog filled: further connections hang (SYNs dropped).
    const listener = Bun.spawn(
      [
        'python3',
        '-c',
        'import socket,time;s=socket.socket();s.bind(("127.0.0.1",0));s.listen(0);print(s.getsockname()[1],flush=True);time.sleep(60)',
      ],
      { stdout: 'pipe' },
    )
    afterAll(() => listener.kill())
    const port = await portOf(listener)
    const filler = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } })
    afterAll(() => filler.end())
    const started = performance.now()
    const result = await sendDelivery({ ...delivery, url: `http://127.0.0.1:${port}/in` }, options)
    const took = performance.now() - started
    expect(result).toEqual({ delivered: false, status: null, error: 'could not connect within 0.3 s' })
    expect(took).toBeLessThan(options.timeoutMs)
  })
})

/** The port the listener printed on its first line. */
async function portOf(proc: { stdout: ReadableStream<Uint8Array> }): Promise<number> {
  const reader = proc.stdout.getReader()
  const { value } = await reader.read()
  reader.releaseLock()
  return Number(new TextDecoder().decode(value).trim())
}

describe('the dispatcher’s slots', () => {
  const candidate = (id: string, webhookId: string, ownerId: string) => ({ id, webhookId, ownerId })

  test('go round the owners, one webhook at a time, never past its in-flight cap', () => {
    // Owner a has 50 due deliveries on one webhook (only its first comes as a candidate per slot), and two more webhooks.
    const candidates = [
      candidate('a1', 'wa', 'a'),
      candidate('a2', 'wa2', 'a'),
      candidate('a3', 'wa3', 'a'),
      candidate('b1', 'wb', 'b'),
      candidate('c1', 'wc', 'c'),
    ]
    expect(fairShare(candidates, 3, 1, new Map())).toEqual(['a1', 'b1', 'c1'])
    expect(fairShare(candidates, 5, 1, new Map())).toEqual(['a1', 'b1', 'c1', 'a2', 'a3'])
    // A webhook already at its cap (in flight elsewhere in this process) is passed over.
    expect(
      fairShare(
        candidates,
        5,
        1,
        new Map([
          ['wa', 1],
          ['wb', 1],
        ]),
      ),
    ).toEqual(['a2', 'c1', 'a3'])
    // Two candidates of one webhook: the second only with a cap of 2.
    const two = [candidate('x1', 'wx', 'x'), candidate('x2', 'wx', 'x'), candidate('y1', 'wy', 'y')]
    expect(fairShare(two, 4, 1, new Map())).toEqual(['x1', 'y1'])
    expect(fairShare(two, 4, 2, new Map())).toEqual(['x1', 'y1', 'x2'])
  })
})
