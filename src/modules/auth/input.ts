import { bodyChecker } from '../../http/check-body'
import { parseTtl } from '../../lib/durations'
import { DEFAULT_TOKEN_TTL, LoginBody, NewTokenBody } from './model'

const checkLogin = bodyChecker(LoginBody)
const checkNewToken = bodyChecker(NewTokenBody)

/** A sign-in body, checked against LoginBody. */
export function signInFrom(body: unknown): { username: string; password: string } {
  return checkLogin(body)
}

/** A new-token body, checked against NewTokenBody: the label trimmed, the lifetime in seconds (null: never expires). */
export function newTokenFrom(body: unknown): { label: string; ttlSeconds: number | null } {
  const { label, ttl } = checkNewToken(body)
  const ttlSeconds = parseTtl(ttl ?? DEFAULT_TOKEN_TTL)
  if (ttlSeconds === undefined) throw new Error(`ttl ${JSON.stringify(ttl)} passed its rule but is not a lifetime`)
  return { label: label.trim(), ttlSeconds }
}
