import type { Static } from 'elysia'
import type { Scope } from '../../core/accounts/scopes'
import { parseTtl } from '../../lib/durations'
import { DEFAULT_TOKEN_TTL } from '../../shared/account-shapes'
import type { NewTokenBody } from './model'

/**
 * A new-token body (checked against NewTokenBody by its route): the label trimmed, the lifetime in seconds
 * (null: never expires), the scopes asked for (undefined: none asked for).
 */
export function newTokenFrom({ label, ttl, scopes, team }: Static<typeof NewTokenBody>): {
  label: string
  ttlSeconds: number | null
  scopes: Scope[] | undefined
  teamId: string | undefined
} {
  const ttlSeconds = parseTtl(ttl ?? DEFAULT_TOKEN_TTL)
  if (ttlSeconds === undefined) throw new Error(`ttl ${JSON.stringify(ttl)} passed its rule but is not a lifetime`)
  return { label: label.trim(), ttlSeconds, scopes, teamId: team }
}
