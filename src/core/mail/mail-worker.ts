import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { type SmtpSender, smtpSender } from './transport'
import { senderOf } from './message'
import { nextAttemptAt } from '../outbox/backoff'
import { onOutboxWritten } from '../webhooks/wake'
import type { MailRow } from '../../db/tables'

export type MailWorker = {
  nudge(): void
  /** Resolves once nothing is being claimed or sent (for tests). */
  idle(): Promise<void>
  stop(): Promise<void>
}

/** Mails sent at once; an SMTP server takes them on one connection each. */
const CONCURRENCY = 2
/** How long a claimed mail is held before another instance may try it: the send's own limits and then some. */
const LEASE_MS = 60_000
const POLL_MS = 5_000
/**
 * A mail's body is kept only until it is sent or given up: it may carry a secret (an invitation's link) that the
 * server otherwise keeps only as a hash. The row keeps who, what (the subject), when and the server's answers.
 */
const BODY_DROPPED = { textBody: '', htmlBody: '' }

/**
 * Sends the mail outbox beside the server. A claim counts the attempt and moves `next_attempt_at` past the lease
 * before anything is sent, so a process killed mid-send leaves a row that comes due again by itself: at least
 * once, never lost. A mail the SMTP server accepted is never sent again; one it refused for now (4xx, or no
 * connection) is retried with the webhooks' backoff for a day; one refused for good (5xx) fails at once. Every
 * answer of the server is kept on the row, and the Message-ID is the same on every attempt.
 */
export function startMailWorker(ctx: AppContext, options: { pollMs?: number; sender?: SmtpSender } = {}): MailWorker | undefined {
  if (ctx.config.smtpUrl === undefined) return undefined
  const sender = options.sender ?? smtpSender(ctx.config.smtpUrl)
  const from = senderOf(ctx.config)
  const host = new URL(ctx.config.publicUrl).hostname
  const inFlight = new Set<Promise<void>>()
  let pumping: Promise<void> | undefined
  let again = false
  let stopped = false

  const send = async (mail: MailRow) => {
    const answer = await sender.send({
      messageId: `<${mail.id}@${host}>`,
      from,
      to: mail.toAddress,
      subject: mail.subject,
      text: mail.textBody,
      html: mail.htmlBody,
    })
    await recordAttempt(ctx, mail, answer)
  }

  const pump = async () => {
    do {
      again = false
      const free = CONCURRENCY - inFlight.size
      if (free <= 0 || stopped) return
      for (const mail of await claim(ctx, free)) {
        const running: Promise<void> = send(mail)
          .catch((error: unknown) => ctx.log.error(`mail ${mail.id}: could not record the attempt`, error))
          .finally(() => {
            inFlight.delete(running)
            nudge()
          })
        inFlight.add(running)
      }
    } while (again)
  }
  const nudge = () => {
    if (stopped) return
    if (pumping) {
      again = true
      return
    }
    pumping = pump()
      .catch((error: unknown) => ctx.log.error('mail worker: the outbox could not be read', error))
      .finally(() => {
        pumping = undefined
      })
  }
  const unwake = onOutboxWritten(ctx, nudge)
  const timer = setInterval(nudge, options.pollMs ?? POLL_MS)
  nudge()

  return {
    nudge,
    async idle() {
      while (pumping || inFlight.size > 0) await Promise.all([pumping, ...inFlight])
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      unwake()
      await Promise.all([pumping, ...inFlight])
      sender.close()
    },
  }
}

/** Claims up to `count` due mails: counts the attempt and holds them for the lease, in one statement. */
async function claim(ctx: AppContext, count: number): Promise<MailRow[]> {
  const { mailOutbox } = ctx.db.tables
  const now = ctx.now()
  const due = await ctx.db.orm
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'pending'), sql`${mailOutbox.nextAttemptAt} <= ${now}`))
    .orderBy(mailOutbox.nextAttemptAt, mailOutbox.seq)
    .limit(count)
  if (due.length === 0) return []
  return ctx.db.orm
    .update(mailOutbox)
    .set({ nextAttemptAt: now + LEASE_MS, attempts: sql`${mailOutbox.attempts} + 1` })
    .where(
      and(
        inArray(
          mailOutbox.id,
          due.map((row) => row.id),
        ),
        eq(mailOutbox.status, 'pending'),
        sql`${mailOutbox.nextAttemptAt} <= ${now}`,
      ),
    )
    .returning()
}

async function recordAttempt(ctx: AppContext, mail: MailRow, answer: Awaited<ReturnType<SmtpSender['send']>>): Promise<void> {
  const { mailOutbox } = ctx.db.tables
  const now = ctx.now()
  const mine = and(eq(mailOutbox.id, mail.id), eq(mailOutbox.status, 'pending'))
  if (answer.accepted) {
    ctx.metrics.outboxAttempt('mail', 'delivered')
    await ctx.db.orm
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: now, lastResponse: answer.response, ...BODY_DROPPED })
      .where(mine)
    return
  }
  const next = answer.temporary ? nextAttemptAt({ createdAt: mail.createdAt, attempts: mail.attempts, now }) : null
  ctx.metrics.outboxAttempt('mail', next === null ? 'failed' : 'retry')
  await ctx.db.orm
    .update(mailOutbox)
    .set(
      next === null
        ? { status: 'failed', lastResponse: answer.response, ...BODY_DROPPED }
        : { nextAttemptAt: next, lastResponse: answer.response },
    )
    .where(mine)
  if (next === null)
    ctx.log.info(`mail ${mail.id} (${mail.kind}) to ${mail.toAddress} failed after ${mail.attempts} attempts: ${answer.response}`)
}
