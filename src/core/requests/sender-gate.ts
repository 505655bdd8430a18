import type { AppContext } from '../context'
import { rateLimitFor } from '../limits/rate-limit'
import { canonicalAddress, readerAddressOf, readerVerdict } from '../links/readers'
import { passwordMatches } from '../passwords/argon2'
import { mailedCodes } from '../readers/mailed-codes'
import { UNLOCK_FAILURES_PER_WINDOW, UNLOCK_WINDOW_MS } from '../share/unlock-link'
import type { RequestRow } from '../../db/tables'
import type { Language } from '../../shared/languages'
import { DomainError, badRequest, senderRefused } from '../../errors'
import { isUnlocked, senderCookieValue, senderOfCookies, unlockValue } from './sender-cookies'

export type UnlockRequestDecision =
  | { kind: 'unlocked'; cookie: string }
  | { kind: 'wrong' }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'busy' }

/**
 * What the address form of a verified-email request decided: not an address (`invalid`); a code was mailed to
 * it, or so it is answered when the lists keep it out (`code_sent`); too many codes (`rate_limited`); no mail server.
 */
export type SenderAddressDecision =
  | { kind: 'invalid' }
  | { kind: 'code_sent'; address: string }
  | { kind: 'rate_limited'; address: string; retryAfterSeconds: number }
  | { kind: 'no_mail' }

/** What the code form decided: the sender is in (their cookie), or the code is wrong (tries left) or expired. */
export type SenderCodeDecision =
  | { kind: 'invalid' }
  | { kind: 'admitted'; address: string; cookie: string }
  | { kind: 'wrong'; address: string; triesLeft: number }
  | { kind: 'expired'; address: string }

type Gated = Pick<RequestRow, 'id' | 'passwordHash' | 'access' | 'allowSenders' | 'denySenders'>

/**
 * A file request's gate, by the readers' rules (core/share/unlock-link.ts, core/links/readers.ts): its password,
 * given once on its page and remembered in a signed cookie (sender-cookies.ts), wrong guesses limited per request
 * and address as a link's are; and who may send, judged on the address the sender gives against the allow and
 * deny lists as they are now. `verified-email` asks for a mailed code (core/readers/mailed-codes.ts: the readers'
 * codes, their tries and limits, a stand-in for an address the lists keep out), which only a verified sender
 * cookie proves; the address it proved is the one the file's source names.
 */
export function senderGate(ctx: AppContext) {
  const failures = rateLimitFor(ctx, 'of request passwords', { perMinute: UNLOCK_FAILURES_PER_WINDOW, windowMs: UNLOCK_WINDOW_MS })
  const isLocked = (request: Gated, cookies: string | null): boolean =>
    request.passwordHash !== null && !isUnlocked(ctx.signingKey, request, cookies, ctx.now())
  const codes = mailedCodes(ctx, {
    name: 'sender',
    codes: { table: ctx.db.tables.senderCodes, scope: 'requestId' },
    // Nothing of the request or its owner: whoever typed the address may not be its owner.
    mail: 'sender',
  })
  const allows = (request: Gated, address: string) =>
    readerVerdict({ allowReaders: request.allowSenders, denyReaders: request.denySenders }, address) === 'allowed'
  /** The verified sender of the request's cookies, if any. */
  const verifiedSender = (request: Gated, cookies: string | null) => {
    const sender = senderOfCookies(ctx.signingKey, request.id, cookies, ctx.now())
    return sender?.verified ? sender : undefined
  }
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

    /** The address a mailed code proved for this request, if the sender's cookies hold one (verified-email only). */
    provedAddress: (request: Gated, cookies: string | null): string | undefined =>
      request.access === 'verified-email' ? verifiedSender(request, cookies)?.address : undefined,

    /** `POST /u/:slug/sender` of a verified-email request: mails a code to the address typed, in the page's language. */
    async enterAddress(request: Gated, text: string, client: string, language: Language): Promise<SenderAddressDecision> {
      const address = readerAddressOf(text)
      if (address === undefined) return { kind: 'invalid' }
      const sent = await codes.send({ scopeId: request.id, address, allowed: allows(request, address), client, language })
      return sent.kind === 'no_mail' ? sent : { ...sent, address }
    },

    /** `POST /u/:slug/code`: the code typed for the address it was mailed to; the right one gives the sender cookie. */
    async enterCode(request: Gated, text: string, code: string): Promise<SenderCodeDecision> {
      const address = readerAddressOf(text)
      if (address === undefined) return { kind: 'invalid' }
      // An address the lists keep out is answered as any other (its stand-in code matches nothing).
      const checked = await codes.check({ scopeId: request.id, address, allowed: allows(request, address), code })
      if (checked.kind !== 'admitted') return { ...checked, address }
      return { kind: 'admitted', address, cookie: senderCookieValue(ctx.signingKey, request.id, { address, verified: true }, ctx.now()) }
    },

    /** Throws the 403 for a sender the request does not take: before a byte of the body is read (password, code) … */
    admit(request: Gated, cookies: string | null): void {
      if (isLocked(request, cookies)) throw senderRefused('This file request has a password: open its page and enter it first')
      if (request.access === 'verified-email' && !verifiedSender(request, cookies))
        throw senderRefused('This file request asks for an address proved by a mailed code: open its page and enter the code first')
    },

    /**
     * … and on the address the form gave (null: none given): required unless the request is open, then the lists.
     * A verified-email request takes the address its code proved (the form's, if given, must be that one),
     * judged again against the lists as they are now: an address denied since is out at once.
     */
    address(request: Gated, given: string, cookies: string | null): string | null {
      const proved = request.access === 'verified-email' ? verifiedSender(request, cookies)?.address : undefined
      if (given.trim() === '' && proved === undefined) {
        if (request.access === 'open') return null
        throw badRequest('email must be an email address')
      }
      const address = given.trim() === '' ? proved : readerAddressOf(given)
      if (address === undefined) throw badRequest('email must be an email address')
      if (proved !== undefined && canonicalAddress(address) !== canonicalAddress(proved))
        throw senderRefused(`This file request takes files from the address your code proved (${proved}) only`)
      if (request.access !== 'open' && !allows(request, address))
        throw senderRefused('This file request does not take files from this address')
      return proved ?? address
    },
  }
}
