import type { AppContext } from '../context'
import { rateLimitFor } from '../limits/rate-limit'
import { readerAddressOf, readerVerdict } from '../links/readers'
import { passwordMatches } from '../passwords/argon2'
import { UNLOCK_FAILURES_PER_WINDOW, UNLOCK_WINDOW_MS } from '../share/unlock-link'
import type { RequestRow } from '../../db/tables'
import { DomainError, badRequest, senderRefused } from '../../errors'
import { isUnlocked, senderOfCookies, unlockValue } from './sender-cookies'

export type UnlockRequestDecision =
  | { kind: 'unlocked'; cookie: string }
  | { kind: 'wrong' }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'busy' }

type Gated = Pick<RequestRow, 'id' | 'passwordHash' | 'access' | 'allowSenders' | 'denySenders'>

/**
 * A file request's gate, by the readers' rules (core/share/unlock-link.ts, core/links/readers.ts): its password,
 * given once on its page and remembered in a signed cookie (sender-cookies.ts), wrong guesses limited per request
 * and address as a link's are; and who may send, judged on the address the sender gives against the allow and
 * deny lists as they are now. `verified-email` asks for a mailed code, which only a verified sender cookie proves.
 */
export function senderGate(ctx: AppContext) {
  const failures = rateLimitFor(ctx, 'of request passwords', { perMinute: UNLOCK_FAILURES_PER_WINDOW, windowMs: UNLOCK_WINDOW_MS })
  const isLocked = (request: Gated, cookies: string | null): boolean =>
    request.passwordHash !== null && !isUnlocked(ctx.signingKey, request, cookies, ctx.now())
  return {
    /** Checks the password a sender typed on the request's page. */
    async unlock(request: Gated, address: string, password: string): Promise<UnlockRequestDecision> {
      const key = `${request.id}\n${address}`
      const now = ctx.now()
      const decision = await failures.hit(key, now)
      if (decision && !decision.allowed) {
        await failures.undo(key, now)
        return { kind: 'rate_limited', retryAfterSeconds: decision.resetSeconds }
      }
      let right = false
      try {
        right = await passwordMatches(password, request.passwordHash)
      } catch (error) {
        await failures.undo(key, now)
        if (error instanceof DomainError && error.code === 'server_busy') return { kind: 'busy' }
        throw error
      }
      if (!right) return { kind: 'wrong' }
      await failures.undo(key, now)
      return { kind: 'unlocked', cookie: unlockValue(ctx.signingKey, request, now) }
    },

    /** Whether the request has a password the sender's cookies do not show given. */
    isLocked,

    /** Throws the 403 for a sender the request does not take: before a byte of the body is read (password, code) … */
    admit(request: Gated, cookies: string | null): void {
      if (isLocked(request, cookies)) throw senderRefused('This file request has a password: open its page and enter it first')
      if (request.access === 'verified-email' && !senderOfCookies(ctx.signingKey, request.id, cookies, ctx.now())?.verified)
        throw senderRefused('This file request asks for an address proved by a mailed code: open its page and enter the code first')
    },

    /** … and on the address the form gave (null: none given): required unless the request is open, then the lists. */
    address(request: Gated, given: string): string | null {
      if (given.trim() === '' && request.access === 'open') return null
      const address = readerAddressOf(given)
      if (address === undefined) throw badRequest('email must be an email address')
      if (
        request.access !== 'open' &&
        readerVerdict({ allowReaders: request.allowSenders, denyReaders: request.denySenders }, address) !== 'allowed'
      )
        throw senderRefused('This file request does not take files from this address')
      return address
    },
  }
}
