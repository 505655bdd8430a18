import type { Server } from 'bun'
import { addressGroup } from '../lib/address-group'

/**
 * The client's address. Behind `hops` trusted reverse proxies it is the entry that many places from the end
 * of X-Forwarded-For (each proxy appends the address it saw); with 0 hops the header is ignored, since any
 * client can send it. "" when unknown (e.g. in tests that call app.handle).
 */
export function clientIpOf(request: Request, server: Server<unknown> | null, hops: number): string {
  if (hops > 0) {
    const chain = (request.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
    const entry = chain[chain.length - hops]
    if (entry) return entry
  }
  return server?.requestIP(request)?.address ?? ''
}

/** The client as the limits count it: its address, IPv6 by its /64 (see addressGroup). */
export function clientGroupOf(request: Request, server: Server<unknown> | null, hops: number): string {
  return addressGroup(clientIpOf(request, server, hops))
}

/** Both at once, for routes that need the address itself (a visit's) and the group the limits count. */
export type Client = { ip: string; group: string }

export function clientOf(request: Request, server: Server<unknown> | null, hops: number): Client {
  const ip = clientIpOf(request, server, hops)
  return { ip, group: addressGroup(ip) }
}
