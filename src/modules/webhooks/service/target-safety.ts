import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/**
 * Addresses a webhook may not reach unless PDFSHARE_WEBHOOK_ALLOW_PRIVATE is on: the server's own host and its
 * networks (loopback, private, link-local, CGNAT) and what is no host at all (unspecified, multicast, reserved).
 * IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) are judged as the IPv4 address they carry.
 */
const RANGES: [kind: string, network: string, prefix: number, family: 'ipv4' | 'ipv6'][] = [
  ['an unspecified', '0.0.0.0', 8, 'ipv4'],
  ['a loopback', '127.0.0.0', 8, 'ipv4'],
  ['a private', '10.0.0.0', 8, 'ipv4'],
  ['a private', '172.16.0.0', 12, 'ipv4'],
  ['a private', '192.168.0.0', 16, 'ipv4'],
  ['a shared (CGNAT)', '100.64.0.0', 10, 'ipv4'],
  ['a link-local', '169.254.0.0', 16, 'ipv4'],
  ['a multicast', '224.0.0.0', 4, 'ipv4'],
  ['a reserved', '240.0.0.0', 4, 'ipv4'],
  ['an unspecified', '::', 128, 'ipv6'],
  ['a loopback', '::1', 128, 'ipv6'],
  ['a private', 'fc00::', 7, 'ipv6'],
  ['a link-local', 'fe80::', 10, 'ipv6'],
  ['a multicast', 'ff00::', 8, 'ipv6'],
]

const blocks = RANGES.map(([kind, network, prefix, family]) => {
  const list = new BlockList()
  list.addSubnet(network, prefix, family)
  return { kind, list }
})

/** "a loopback", "a private"… for an address a webhook may not reach; undefined for a public one. */
export function addressKind(address: string): string | undefined {
  const family = isIP(address)
  if (family === 0) return undefined
  const type = family === 4 ? 'ipv4' : 'ipv6'
  return blocks.find(({ list }) => list.check(address, type))?.kind
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
 * Why a delivery to this URL may not be sent now, or undefined: every address its host resolves to, at the
 * moment of the attempt, must be public. (The fetch that follows resolves the name again; see the README on
 * DNS rebinding.)
 */
export async function targetRefusal(url: URL, allowPrivate: boolean, resolve: Resolve = resolveAll): Promise<string | undefined> {
  if (allowPrivate) return undefined
  const literal = literalAddress(url)
  if (literal !== undefined) return literalTargetRefusal(url, false)
  let addresses: string[]
  try {
    addresses = await resolve(url.hostname)
  } catch (error) {
    return `could not resolve ${url.hostname}: ${(error as { code?: string }).code ?? String(error)}`
  }
  if (addresses.length === 0) return `could not resolve ${url.hostname}: no address`
  for (const address of addresses) {
    const kind = addressKind(address)
    if (kind) return `refused: ${url.hostname} resolves to ${address}, ${kind} address; ${ALLOW_HINT}`
  }
  return undefined
}
