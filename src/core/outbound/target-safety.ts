import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/**
 * Where a webhook or a notification may go unless PDFSHARE_WEBHOOK_ALLOW_PRIVATE is on: global unicast addresses only. Refused:
 * the server's own host and its networks (loopback, private, link-local, CGNAT, site-local), what is no host
 * at all (unspecified, multicast, broadcast, reserved), and the ranges set aside for documentation, benchmarks
 * and protocols (IANA's special-purpose registries). An IPv6 address that carries an IPv4 one — IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), IPv4-translated, NAT64 (64:ff9b::/96) and 6to4 (2002::/16) —
 * is judged by the IPv4 address it carries; otherwise an IPv6 address must be in 2000::/3.
 */
const IPV4_RANGES: [kind: string, network: string, prefix: number][] = [
  ['an unspecified', '0.0.0.0', 8],
  ['a private', '10.0.0.0', 8],
  ['a shared (CGNAT)', '100.64.0.0', 10],
  ['a loopback', '127.0.0.0', 8],
  ['a link-local', '169.254.0.0', 16],
  ['a private', '172.16.0.0', 12],
  ['a reserved (protocol assignments)', '192.0.0.0', 24],
  ['a documentation', '192.0.2.0', 24],
  ['a reserved (6to4 relay)', '192.88.99.0', 24],
  ['a private', '192.168.0.0', 16],
  ['a benchmarking', '198.18.0.0', 15],
  ['a documentation', '198.51.100.0', 24],
  ['a documentation', '203.0.113.0', 24],
  ['a multicast', '224.0.0.0', 4],
  ['a reserved', '240.0.0.0', 4],
]

/** IPv6 ranges inside 2000::/3 that are not global unicast all the same. */
const IPV6_RANGES: [kind: string, network: string, prefix: number][] = [
  ['a reserved (IETF protocol assignments, Teredo)', '2001::', 23],
  ['a documentation', '2001:db8::', 32],
  ['a documentation', '3fff::', 20],
]

const ipv4Blocks = IPV4_RANGES.map(([kind, network, prefix]) => {
  const list = new BlockList()
  list.addSubnet(network, prefix, 'ipv4')
  return { kind, list }
})
const ipv6Blocks = IPV6_RANGES.map(([kind, network, prefix]) => {
  const list = new BlockList()
  list.addSubnet(network, prefix, 'ipv6')
  return { kind, list }
})

/** "a loopback", "a private"… for an address a webhook may not reach; undefined for a global unicast one. */
export function addressKind(address: string): string | undefined {
  const family = isIP(address)
  if (family === 0) return undefined
  if (family === 4) return ipv4Blocks.find(({ list }) => list.check(address, 'ipv4'))?.kind
  const bytes = ipv6Bytes(address)
  const carried = carriedIpv4(bytes)
  if (carried === 'local') return 'a local NAT64'
  if (carried !== undefined) return addressKind(carried)
  if (bytes.every((byte) => byte === 0)) return 'an unspecified'
  if (bytes.slice(0, 15).every((byte) => byte === 0) && bytes[15] === 1) return 'a loopback'
  if (bytes[0] === 0xff) return 'a multicast'
  if ((bytes[0]! & 0xfe) === 0xfc) return 'a private'
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return 'a link-local'
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return 'a site-local'
  if ((bytes[0]! & 0xe0) !== 0x20) return 'a reserved'
  return ipv6Blocks.find(({ list }) => list.check(address, 'ipv6'))?.kind
}

/**
 * The IPv4 address an IPv6 address carries, in the forms that hand it to IPv4: IPv4-mapped ::ffff:0:0/96,
 * IPv4-translated ::ffff:0:0:0/96, IPv4-compatible ::/96 (not :: and ::1), NAT64 64:ff9b::/96 and 6to4 2002::/16
 * ('local' for the local-use NAT64 prefix 64:ff9b:1::/48, whose translation is the site's own).
 */
function carriedIpv4(bytes: number[]): string | 'local' | undefined {
  const zero = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0)
  const v4 = (at: number) => bytes.slice(at, at + 4).join('.')
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4(12)
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) return v4(12)
  if (zero(0, 12) && !zero(12, 15)) return v4(12)
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) {
    if (zero(4, 12)) return v4(12)
    if (bytes[4] === 0x00 && bytes[5] === 0x01) return 'local'
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4(2)
  return undefined
}

/** The 16 bytes of an IPv6 address in any text form (`::`, a dotted IPv4 tail), as isIP accepts them. */
function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase()
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined]
  const groups = (part: string | undefined) => (part ? part.split(':') : [])
  const left = groups(head)
  const right = groups(tail)
  const all = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
  return all.flatMap((group) => {
    const value = Number.parseInt(group, 16)
    return [value >> 8, value & 0xff]
  })
}

const ALLOW_HINT = 'set PDFSHARE_WEBHOOK_ALLOW_PRIVATE=1 to allow loopback, private and link-local targets'

/** The host of a URL as an address when it is a literal one (IPv6 without its brackets), else undefined. */
function literalAddress(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  return isIP(host) === 0 ? undefined : host
}

/** Why a URL whose host is a literal address may not be a target (checked on create), or undefined. */
export function literalTargetRefusal(url: URL, allowPrivate: boolean): string | undefined {
  if (allowPrivate) return undefined
  const address = literalAddress(url)
  const kind = address === undefined ? undefined : addressKind(address)
  return kind && `url must not point at ${kind} address (${address}); ${ALLOW_HINT}`
}

export type Resolve = (host: string) => Promise<string[]>

const resolveAll: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address)

/**
 * Where one attempt goes: the address to connect to, checked now (so a name that resolves elsewhere a moment
 * later — DNS rebinding — changes nothing: the attempt connects to this address, not to the name again). Or
 * why not: `refusal` for the delivery log, which the webhook's owner reads, and `detail` for the server's
 * own log, which may name the address a name resolved to (the owner learns only that it is not public: how
 * the server resolves internal names is not theirs to see).
 */
export type Target = { address: string } | { refusal: string; detail?: string }

export async function targetOf(url: URL, allowPrivate: boolean, resolve: Resolve = resolveAll): Promise<Target> {
  const literal = literalAddress(url)
  if (literal !== undefined) {
    const refusal = literalTargetRefusal(url, allowPrivate)
    return refusal ? { refusal } : { address: literal }
  }
  let addresses: string[]
  try {
    addresses = await resolve(url.hostname)
  } catch (error) {
    return { refusal: `could not resolve ${url.hostname}: ${(error as { code?: string }).code ?? String(error)}` }
  }
  if (addresses.length === 0) return { refusal: `could not resolve ${url.hostname}: no address` }
  if (!allowPrivate) {
    for (const address of addresses) {
      const kind = addressKind(address)
      if (kind)
        return {
          refusal: `refused: ${url.hostname} resolves to a non-public address; ${ALLOW_HINT}`,
          detail: `${url.hostname} resolves to ${address}, ${kind} address`,
        }
    }
  }
  return { address: addresses[0]! }
}
