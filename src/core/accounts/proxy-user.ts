import { createHash, timingSafeEqual } from 'node:crypto'
import { BlockList, isIP } from 'node:net'
import type { AppContext } from '../context'
import type { UserRow } from '../../db/tables'
import { DomainError, proxyNotTrusted, proxySentNoUser } from '../../errors'
import { addUser } from './users/add-user'
import { findUserByName } from './users/find-user'

/** Whether a connection's address is one of PDFSHARE_AUTH_PROXY_ADDRESSES (IPv4 also when written IPv4-mapped). */
export function proxyAddresses(entries: readonly string[]): (address: string) => boolean {
  const list = new BlockList()
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/')
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (prefix === undefined) list.addAddress(address, family)
    else list.addSubnet(address, Number(prefix), family)
  }
  return (address) => {
    const family = isIP(address)
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4')
  }
}

/** The header in which the proxy sends PDFSHARE_AUTH_PROXY_SECRET. */
export const PROXY_SECRET_HEADER = 'pdfshare-proxy-secret'

/** Whether `given` is the configured secret (none configured: nothing to check), compared in constant time. */
function isProxySecret(configured: string | undefined, given: string | null): boolean {
  if (configured === undefined) return true
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return given !== null && timingSafeEqual(digest(given), digest(configured))
}

/**
 * The user an authenticating proxy vouches for (docs/sign-in.md, Behind an authenticating proxy): `peer` is the
 * connection's own address (never a header), and only one of the proxy's addresses is believed, with the
 * proxy's secret when PDFSHARE_AUTH_PROXY_SECRET is set (then another program at that address, such as any
 * process on the proxy's machine, is not enough). A name pdfshare does not know yet becomes a user (the proxy
 * decided who may reach pdfshare at all).
 */
export async function proxyUser(
  ctx: AppContext,
  input: { peer: string; name: string | null; secret: string | null; trusted: (address: string) => boolean },
): Promise<{ user: UserRow; created: boolean }> {
  if (!input.trusted(input.peer) || !isProxySecret(ctx.config.authProxySecret, input.secret)) throw proxyNotTrusted()
  const name = input.name?.trim() ?? ''
  if (name === '') throw proxySentNoUser()
  try {
    return { user: await findUserByName(ctx, name), created: false }
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'not_found') throw error
  }
  try {
    return { user: await addUser(ctx, { name }), created: true }
  } catch (error) {
    // Made by another request of the same user a moment ago: that one. Else the name itself is refused.
    const made = await findUserByName(ctx, name).catch(() => undefined)
    if (made) return { user: made, created: false }
    throw error
  }
}
