import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * Whether an Authorization header carries the metrics token as a bearer token. Both sides are hashed first, so
 * the comparison takes the same time whatever was sent, its length included.
 */
export function hasMetricsToken(authorization: string | null, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? ''
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(given), digest(token)) && given !== ''
}
