import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { and, eq, lt, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { canonicalAddress, READER_CODE_MAIL } from '../links/readers'
import { rateLimitFor } from '../limits/rate-limit'
import { mailRow } from '../mail/message'
import { translators } from '../i18n/translator'
import type { Language } from '../../shared/languages'
import type { Tables } from '../../db/tables'
import { hmacSha256 } from '../../lib/hmac'

/** How long a mailed code works, and how many wrong ones it survives. */
export const CODE_MINUTES = 10
export const CODE_TRIES = 5

/**
 * Codes mailed per hour, by each gate: to one mailbox (its canonical address, over every link or request, so
 * nobody can make pdfshare flood a mailbox however they spell it), for one link or request, and at the request
 * of one client address (an IPv6 /64 is one). Counted in the shared counters, so they hold across instances.
 * With 5 tries a code, an address sees at most 25 guesses an hour out of a million.
 */
export const CODE_LIMITS = { perAddress: 5, perLink: 100, perClient: 20, windowMs: 60 * 60 * 1000 } as const

/**
 * A gate that mails codes: where it keeps them (a table keyed by what the gate guards, its `scope`, and the
 * address), what it calls its limits (`name`: their counters are its own), what its hash is bound to, and its mail.
 * The mail says what the code opens and where, and nothing of whose link or request it is.
 */
export type CodeGate = {
  name: 'reader' | 'sender'
  codes: { table: Tables['readerCodes']; scope: 'linkId' } | { table: Tables['senderCodes']; scope: 'requestId' }
  /**
   * Its mail's words in the catalogs (`mail.code.reader.*`, `mail.code.sender.*`): the subject (the same for every
   * code), what was asked, and what nothing is without the code.
   */
  mail: 'reader' | 'sender'
}

export type MailDecision = { kind: 'code_sent' } | { kind: 'no_mail' } | { kind: 'rate_limited'; retryAfterSeconds: number }
export type CodeCheck = { kind: 'admitted' } | { kind: 'wrong'; triesLeft: number } | { kind: 'expired' }

/**
 * The mailed six-digit codes of a gate (a link's readers, core/share/reader-gate.ts; a request's senders,
 * core/requests/sender-gate.ts). A code is drawn from the CSPRNG and kept only as an HMAC under the server key (a
 * leaked database gives no code, and no way to test a million candidates without the key); it works CODE_MINUTES,
 * once, and dies after CODE_TRIES wrong ones — each try is claimed before the comparison, so parallel guesses
 * cannot overtake the count. The code and its mail are written in one batch (the mail outbox sends it).
 *
 * The lists must not answer who is on them: an address they keep out (`allowed` false) is answered as any other
 * and mailed nothing. It gets a stand-in code that nothing matches, so its code form counts tries down like any other.
 */
export function mailedCodes(ctx: AppContext, gate: CodeGate) {
  const { mailOutbox } = ctx.db.tables
  // One set of queries for both tables, typed as the readers' one: they differ only in their scope column's name.
  const table = gate.codes.table as Tables['readerCodes']
  const scopeOf = table[gate.codes.scope as 'linkId']
  const limit = (name: string, perWindow: number) =>
    rateLimitFor(ctx, `${gate.name} codes ${name}`, { perMinute: perWindow, windowMs: CODE_LIMITS.windowMs })
  const limits = {
    address: limit('per address', CODE_LIMITS.perAddress),
    scope: limit(gate.codes.scope === 'linkId' ? 'per link' : 'per request', CODE_LIMITS.perLink),
    client: limit('per client', CODE_LIMITS.perClient),
  }
  const codeHash = (scopeId: string, address: string, code: string) =>
    hmacSha256(ctx.signingKey, `${gate.name} code\n${scopeId}\n${address}\n${code}`)
  const rowOf = (scopeId: string, address: string) => and(eq(scopeOf, scopeId), eq(table.email, address))
  const translatorOf = translators()

  return {
    /**
     * Mails a fresh code for `address` (a stand-in, and no mail, when the lists keep it out), within the limits, in
     * `language`: the one of the page the code was asked from (docs/languages.md). The mail is written whole when
     * queued, so its row carries its language in its words (a row queued before mails spoke languages sends as written).
     */
    async send(input: { scopeId: string; address: string; allowed: boolean; client: string; language: Language }): Promise<MailDecision> {
      const { scopeId, address } = input
      if (ctx.config.smtpUrl === undefined) return { kind: 'no_mail' }
      const now = ctx.now()
      for (const [limiter, key] of [
        [limits.client, input.client],
        [limits.address, canonicalAddress(address)],
        [limits.scope, scopeId],
      ] as const) {
        const decision = await limiter.hit(key, now)
        if (decision && !decision.allowed) return { kind: 'rate_limited', retryAfterSeconds: decision.resetSeconds }
      }
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
      const expiresAt = now + CODE_MINUTES * 60_000
      // The stand-in: the hash of 32 random bytes, which no typed code matches.
      const hash = (input.allowed ? codeHash(scopeId, address, code) : randomBytes(32)).toString('hex')
      const stored = [
        ctx.db.orm.delete(table).where(lt(table.expiresAt, now)),
        ctx.db.orm
          .insert(table)
          .values({ [gate.codes.scope]: scopeId, email: address, codeHash: hash, expiresAt, tries: 0 } as typeof table.$inferInsert)
          .onConflictDoUpdate({ target: [scopeOf, table.email], set: { codeHash: hash, expiresAt, tries: 0 } }),
      ] as const
      if (!input.allowed) {
        await ctx.db.orm.batch(stored)
        return { kind: 'code_sent' }
      }
      const t = translatorOf(input.language)
      await ctx.db.orm.batch([
        ...stored,
        ctx.db.orm.insert(mailOutbox).values(
          mailRow(ctx, {
            // One kind for every code mail: erasing a reader removes the code mails to them, whichever gate sent them.
            kind: READER_CODE_MAIL,
            to: address,
            // Neutral: subjects are listed in the admins' view of the outbox, which must not show a working code.
            subject: t(`mail.code.${gate.mail}.subject`),
            text: [
              t(`mail.code.${gate.mail}.asked`, { site: ctx.config.publicUrl }),
              t('mail.code.code', { code, minutes: CODE_MINUTES }),
              t(`mail.code.${gate.mail}.ignore`),
            ].join('\n\n'),
            language: input.language,
          }),
        ),
      ])
      ctx.jobs.wake('outbox')
      return { kind: 'code_sent' }
    },

    /** Checks a typed code for `address` (never `admitted` when the lists keep it out: its code is a stand-in anyway). */
    async check(input: { scopeId: string; address: string; allowed: boolean; code: string }): Promise<CodeCheck> {
      const { scopeId, address } = input
      const where = rowOf(scopeId, address)
      // The try is claimed first: of parallel guesses, at most CODE_TRIES are ever compared.
      const [claimed] = await ctx.db.orm
        .update(table)
        .set({ tries: sql`${table.tries} + 1` })
        .where(and(where, lt(table.tries, CODE_TRIES), sql`${table.expiresAt} > ${ctx.now()}`))
        .returning()
      if (!claimed) return { kind: 'expired' }
      const given = codeHash(scopeId, address, input.code.trim())
      const kept = Buffer.from(claimed.codeHash, 'hex')
      if (input.allowed && given.length === kept.length && timingSafeEqual(given, kept)) {
        await ctx.db.orm.delete(table).where(where) // once
        return { kind: 'admitted' }
      }
      const triesLeft = CODE_TRIES - claimed.tries
      return triesLeft > 0 ? { kind: 'wrong', triesLeft } : { kind: 'expired' }
    },
  }
}
