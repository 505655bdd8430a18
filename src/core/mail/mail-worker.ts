import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { type SmtpSender, smtpSender } from './transport'
import { senderOf } from './message'
import { nextAttemptAt } from '../outbox/backoff'
import type { JobHandle } from '../jobs/jobs'
import { fairOutboxJob } from '../outbox/fair-job'
import type { FairCandidate } from '../outbox/fair-share'
import type { MailRow } from '../../db/tables'

export type MailWorker = JobHandle

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
  // One target, the operator's SMTP server: the fair sending (core/outbox/fair-job.ts) keeps CONCURRENCY mails in
  // flight to it and refills a slot as each is answered.
  const job = ctx.jobs.start(
    fairOutboxJob<MailRow>({
      name: 'mail',
      concurrency: CONCURRENCY,
      perTarget: CONCURRENCY,
      pollMs: options.pollMs ?? POLL_MS,
      candidates: (count) => due(ctx, count),
      claim: (ids) => claim(ctx, ids),
      async send(mail) {
        const answer = await sender.send({
          messageId: `<${mail.id}@${host}>`,
          from,
          to: mail.toAddress,
          subject: mail.subject,
          text: mail.textBody,
          html: mail.htmlBody,
        })
        await recordAttempt(ctx, mail, answer)
      },
      sendFailed: (error, mail) => ctx.log.error(`mail ${mail.id}: could not record the attempt`, error),
      passFailed: (error) => ctx.log.error('mail worker: the outbox could not be read', error),
    }),
  )
  const stopJob = job.stop
  return Object.assign(job, {
    async stop() {
      await stopJob()
      sender.close()
    },
  })
}

/** The oldest due mails, at most `count`: all to the one target, the SMTP server. */
async function due(ctx: AppContext, count: number): Promise<FairCandidate[]> {
  const { mailOutbox } = ctx.db.tables
  const rows = await ctx.db.orm
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'pending'), sql`${mailOutbox.nextAttemptAt} <= ${ctx.now()}`))
    .orderBy(mailOutbox.nextAttemptAt, mailOutbox.seq)
    .limit(count)
  return rows.map((row) => ({ id: row.id, targetId: 'smtp', ownerId: 'smtp' }))
}

/** Claims the chosen due mails: counts the attempt and holds them for the lease, in one statement. */
async function claim(ctx: AppContext, ids: string[]): Promise<MailRow[]> {
  const { mailOutbox } = ctx.db.tables
  const now = ctx.now()
  return ctx.db.orm
    .update(mailOutbox)
    .set({ nextAttemptAt: now + LEASE_MS, attempts: sql`${mailOutbox.attempts} + 1` })
    .where(and(inArray(mailOutbox.id, ids), eq(mailOutbox.status, 'pending'), sql`${mailOutbox.nextAttemptAt} <= ${now}`))
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
