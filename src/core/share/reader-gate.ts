import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { and, eq, lt, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { SharedLink } from '../links/find-shared-link'
import type { LinkState } from '../links/link-state'
import { canonicalAddress, READER_CODE_MAIL, readerAddressOf, readerVerdict } from '../links/readers'
import { rateLimitFor } from '../limits/rate-limit'
import { mailRow } from '../mail/message'
import { hmacSha256 } from '../../lib/hmac'
import type { LinkAccess } from './link-access'

/** How long a mailed code works, and how many wrong ones it survives. */
export const CODE_MINUTES = 10
export const CODE_TRIES = 5

/**
 * Codes mailed per hour: to one mailbox (its canonical address, over every link, so nobody can make pdfshare
 * flood a mailbox however they spell it), for one link, and at the request of one client address (an IPv6 /64
 * is one). Counted in the shared counters, so they hold across instances. With 5 tries a code, an address sees
 * at most 25 guesses an hour out of a million.
 */
export const CODE_LIMITS = { perAddress: 5, perLink: 100, perClient: 20, windowMs: 60 * 60 * 1000 } as const

/**
 * Addresses an `email` link may refuse one client address in an hour: past that, every address it tries is
 * refused (429) until the hour is over, the allowed ones too, so the lists cannot be read out by trying
 * addresses. A `verified-email` link needs no such count: it answers every address alike (a code was sent).
 */
export const REFUSAL_LIMITS = { perClient: 10, windowMs: 60 * 60 * 1000 } as const

/**
 * What the address form of a link's gate (`POST /s/:slug/reader`) decided: the link is missing or gone, or asks
 * for no address (`no_form`); the reader's already past this gate (`in`); the text is not an address
 * (`invalid`); the lists keep it out (`denied`, `not_allowed`: an email link only); the link lets it in as given
 * (`admitted`, access email); a code was mailed to it, or so it is answered (`code_sent`); too many codes, or
 * too many refusals from this client (`rate_limited`, `what`); no mail server (`no_mail`).
 */
export type AddressDecision =
  | { kind: 'missing' }
  | { kind: 'gone'; state: Exclude<LinkState, 'active'> }
  | { kind: 'no_form' }
  | { kind: 'in'; link: SharedLink['link'] }
  | { kind: 'invalid'; link: SharedLink['link']; text: string }
  | { kind: 'denied' | 'not_allowed'; link: SharedLink['link']; address: string }
  | { kind: 'admitted'; link: SharedLink['link']; address: string; verified: boolean }
  | { kind: 'code_sent'; link: SharedLink['link']; address: string }
  | { kind: 'rate_limited'; link: SharedLink['link']; address: string; retryAfterSeconds: number; what: 'codes' | 'refusals' }
  | { kind: 'no_mail'; link: SharedLink['link'] }

/** What the code form decided: as above, or the code is `wrong` (tries left) or `expired` (none, dead or used up). */
export type CodeDecision =
  | Extract<
      AddressDecision,
      { kind: 'missing' | 'gone' | 'no_form' | 'in' | 'invalid' | 'denied' | 'not_allowed' | 'admitted' | 'rate_limited' }
    >
  | { kind: 'wrong'; link: SharedLink['link']; address: string; triesLeft: number }
  | { kind: 'expired'; link: SharedLink['link']; address: string }

/** The link and what the reader's cookies open of it (link-access.ts), and the client as the limits count it. */
type GateInput = { access: LinkAccess; client: string }

/**
 * The reader's side of a link that asks for an address: the address form, and for a verified-email link the
 * mailed six-digit code. A code is drawn from the CSPRNG and kept only as an HMAC under the server key (a leaked
 * database gives no code, and no way to test a million candidates without the key); it works CODE_MINUTES,
 * once, and dies after CODE_TRIES wrong ones — each try is claimed before the comparison, so parallel guesses
 * cannot overtake the count. The code and its mail are written in one batch (the mail outbox sends it).
 *
 * The lists must not answer who is on them. A verified-email link answers an address the lists keep out as it
 * answers any other (the code form; the limits counted alike), and mails nothing: it gets a stand-in code that
 * nothing matches, so its code form counts tries down like any other. An email link lets in or refuses at once,
 * so its refusals are counted per client (REFUSAL_LIMITS).
 */
export function readerGate(ctx: AppContext) {
  const { readerCodes, mailOutbox } = ctx.db.tables
  const limit = (name: string, perWindow: number) =>
    rateLimitFor(ctx, `reader codes ${name}`, { perMinute: perWindow, windowMs: CODE_LIMITS.windowMs })
  const limits = {
    address: limit('per address', CODE_LIMITS.perAddress),
    link: limit('per link', CODE_LIMITS.perLink),
    client: limit('per client', CODE_LIMITS.perClient),
  }
  const refusals = rateLimitFor(ctx, 'reader refusals per client', {
    perMinute: REFUSAL_LIMITS.perClient,
    windowMs: REFUSAL_LIMITS.windowMs,
  })
  const codeHash = (linkId: string, address: string, code: string) =>
    hmacSha256(ctx.signingKey, `reader code\n${linkId}\n${address}\n${code}`)

  /** The link's state at its reader gate: the first answers both forms share. */
  const atGate = ({ access }: GateInput) => {
    if (access.kind !== 'open') return access
    const { link } = access.shared
    if (link.access === 'open' || access.gate === 'password') return { kind: 'no_form' } as const
    if (access.gate !== 'reader') return { kind: 'in', link } as const
    return { kind: 'gate', shared: access.shared } as const
  }
  const judged = (link: SharedLink['link'], text: string) => {
    const address = readerAddressOf(text)
    if (address === undefined) return { kind: 'invalid', link, text } as const
    const verdict = readerVerdict(link, address)
    if (verdict !== 'allowed') return { kind: verdict, link, address } as const
    return { kind: 'allowed', address } as const
  }

  /**
   * An email link's answer to an address: in, or refused by the lists; either way counted against the client's
   * refusals first, and taken back when it let the reader in (so only refusals use them up).
   */
  const admitByAddress = async (
    link: SharedLink['link'],
    judgement: ReturnType<typeof judged>,
    client: string,
  ): Promise<Extract<AddressDecision, { kind: 'invalid' | 'denied' | 'not_allowed' | 'admitted' | 'rate_limited' }>> => {
    if (judgement.kind === 'invalid') return judgement
    const now = ctx.now()
    const decision = await refusals.hit(client, now)
    if (decision && !decision.allowed)
      return { kind: 'rate_limited', link, address: judgement.address, retryAfterSeconds: decision.resetSeconds, what: 'refusals' }
    if (judgement.kind !== 'allowed') return judgement
    if (decision) await refusals.undo(client, now)
    return { kind: 'admitted', link, address: judgement.address, verified: false }
  }

  /** A code for a verified-email link: mailed when the lists let the address in; the same answer when they do not. */
  const mailCode = async (shared: SharedLink, address: string, allowed: boolean, client: string): Promise<AddressDecision> => {
    const { link } = shared
    if (ctx.config.smtpUrl === undefined) return { kind: 'no_mail', link }
    const now = ctx.now()
    for (const [limiter, key] of [
      [limits.client, client],
      [limits.address, canonicalAddress(address)],
      [limits.link, link.id],
    ] as const) {
      const decision = await limiter.hit(key, now)
      if (decision && !decision.allowed)
        return { kind: 'rate_limited', link, address, retryAfterSeconds: decision.resetSeconds, what: 'codes' }
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
    const expiresAt = now + CODE_MINUTES * 60_000
    // An address the lists keep out gets a stand-in: the hash of 32 random bytes, which no typed code matches, so
    // its code form counts tries down and runs out exactly as a mailed code does. Nothing is mailed to it.
    const hash = allowed ? codeHash(link.id, address, code) : randomBytes(32)
    const values = { linkId: link.id, email: address, codeHash: hash.toString('hex'), expiresAt, tries: 0 }
    const stored = [
      ctx.db.orm.delete(readerCodes).where(lt(readerCodes.expiresAt, now)),
      ctx.db.orm
        .insert(readerCodes)
        .values(values)
        .onConflictDoUpdate({ target: [readerCodes.linkId, readerCodes.email], set: { codeHash: values.codeHash, expiresAt, tries: 0 } }),
    ] as const
    if (!allowed) {
      await ctx.db.orm.batch(stored)
      return { kind: 'code_sent', link, address }
    }
    await ctx.db.orm.batch([
      ...stored,
      ctx.db.orm.insert(mailOutbox).values(
        mailRow(ctx, {
          kind: READER_CODE_MAIL,
          to: address,
          // Neutral: subjects are listed in the admins' view of the outbox, which must not show a working code.
          subject: 'Your code to open a shared document',
          text: [
            `Someone (hopefully you) asked to open a document shared with you at ${ctx.config.publicUrl}.`,
            `Your code is ${code}. Type it on the page; it works for ${CODE_MINUTES} minutes.`,
            'If it was not you, ignore this mail: nothing is opened without the code.',
          ].join('\n\n'),
        }),
      ),
    ])
    ctx.jobs.wake('outbox')
    return { kind: 'code_sent', link, address }
  }

  return {
    /** `POST /s/:slug/reader`: the address a reader typed. */
    async enterAddress(input: GateInput & { email: string }): Promise<AddressDecision> {
      const at = atGate(input)
      if (at.kind !== 'gate') return at
      const { link } = at.shared
      const judgement = judged(link, input.email)
      if (link.access === 'email') return admitByAddress(link, judgement, input.client)
      if (judgement.kind === 'invalid') return judgement
      return mailCode(at.shared, judgement.address, judgement.kind === 'allowed', input.client)
    },

    /** `POST /s/:slug/code`: the code a reader typed for the address it was mailed to. */
    async enterCode(input: GateInput & { email: string; code: string }): Promise<CodeDecision> {
      const at = atGate(input)
      if (at.kind !== 'gate') return at
      const { link } = at.shared
      const judgement = judged(link, input.email)
      if (link.access === 'email') return admitByAddress(link, judgement, input.client)
      if (judgement.kind === 'invalid') return judgement
      // An address the lists keep out is answered as any other ("wrong", "expired"; its stand-in code matches nothing), never "not allowed".
      const { address } = judgement
      const where = and(eq(readerCodes.linkId, link.id), eq(readerCodes.email, address))
      // The try is claimed first: of parallel guesses, at most CODE_TRIES are ever compared.
      const [claimed] = await ctx.db.orm
        .update(readerCodes)
        .set({ tries: sql`${readerCodes.tries} + 1` })
        .where(and(where, lt(readerCodes.tries, CODE_TRIES), sql`${readerCodes.expiresAt} > ${ctx.now()}`))
        .returning()
      if (!claimed) return { kind: 'expired', link, address }
      const given = codeHash(link.id, address, input.code.trim())
      const kept = Buffer.from(claimed.codeHash, 'hex')
      if (judgement.kind === 'allowed' && given.length === kept.length && timingSafeEqual(given, kept)) {
        await ctx.db.orm.delete(readerCodes).where(where) // once
        return { kind: 'admitted', link, address, verified: true }
      }
      const triesLeft = CODE_TRIES - claimed.tries
      return triesLeft > 0 ? { kind: 'wrong', link, address, triesLeft } : { kind: 'expired', link, address }
    },
  }
}
