/**
 * The part of a client address that stands for one client in limits: an IPv4 address as it is, an IPv6
 * address by its /64. One subscriber is usually given a whole /64 and may use any of its 2^64 addresses, so
 * counting full IPv6 addresses would let one client reset every limit by changing address. An IPv4 address
 * written as IPv6 (`::ffff:192.0.2.1`) is the IPv4 address. Anything else (not an address, "" when unknown)
 * is returned as it is, cut to 64 characters so a key stays small.
 */
export function addressGroup(address: string): string {
  const ip = address.split('%')[0]! // an IPv6 zone ("fe80::1%eth0") names an interface, not a client
  if (!ip.includes(':')) return ip.slice(0, MAX_KEY_LENGTH)
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)
  if (mapped) return mapped[1]!
  const groups = ipv6Groups(ip)
  if (!groups) return ip.slice(0, MAX_KEY_LENGTH)
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`
}

const MAX_KEY_LENGTH = 64
const HEX_GROUP = /^[0-9a-f]{1,4}$/i
const DOTTED_QUAD = /^\d{1,3}(?:\.\d{1,3}){3}$/

/** The eight 16-bit groups of an IPv6 address in text form, or undefined when it is not one. */
function ipv6Groups(ip: string): string[] | undefined {
  const halves = ip.split('::')
  if (halves.length > 2) return undefined
  const parts = (half: string | undefined) => (half ? half.split(':') : [])
  const head = parts(halves[0])
  const tail = parts(halves[1])
  // A trailing dotted quad ("::ffff:1.2.3.4", "64:ff9b::1.2.3.4") fills the last two groups.
  const last = tail.length > 0 ? tail : head
  if (last.length > 0 && DOTTED_QUAD.test(last[last.length - 1]!)) last.splice(last.length - 1, 1, '0', '0')
  if (![...head, ...tail].every((group) => HEX_GROUP.test(group))) return undefined
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  return [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...tail]
}
