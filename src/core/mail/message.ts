import type { AppContext } from '../context'
import type { MailRow } from '../../db/tables'
import { escapeHtml } from '../../lib/html'
import { randomId } from '../../lib/ids'
import { mailNotSetUp } from '../../errors'
import { DEFAULT_LANGUAGE, directionOf, type Language } from '../../shared/languages'

/**
 * A mail to send: plain text and the same as simple HTML (no remote images, no tracking pixel, no script), in
 * `language` (its subject and text already written in it; the HTML says it with `lang` and `dir`). English unless said.
 */
export type Mail = { kind: string; to: string; subject: string; text: string; language?: Language }

/** The From of every mail: PDFSHARE_MAIL_FROM, else pdfshare@ the public URL's host. */
export const senderOf = (config: { mailFrom: string | undefined; publicUrl: string }) =>
  config.mailFrom ?? `pdfshare <pdfshare@${new URL(config.publicUrl).hostname}>`

/**
 * The HTML twin of a plain-text body: paragraphs, links made clickable (without the sentence's closing stop),
 * everything else escaped; its `<html>` says the language and direction (Arabic reads right to left).
 */
export function htmlOf(text: string, language: Language = DEFAULT_LANGUAGE): string {
  const paragraphs = text.split(/\n{2,}/).map((paragraph) => {
    const escaped = escapeHtml(paragraph).replace(/\n/g, '<br>')
    return `<p>${escaped.replace(/https?:\/\/[^\s<]*[^\s<.,;:!?)。、]/g, (url) => `<a href="${url}">${url}</a>`)}</p>`
  })
  return `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><body style="font-family:system-ui,sans-serif;line-height:1.5">${paragraphs.join('')}</body></html>`
}

/** Refuses early when there is no SMTP server: whatever needs mail says so instead of failing later, silently. */
export function requireMail(ctx: AppContext): void {
  if (ctx.config.smtpUrl === undefined) throw mailNotSetUp()
}

/** The outbox row of a mail, to insert in the same batch as what it is about. */
export function mailRow(ctx: AppContext, mail: Mail): typeof ctx.db.tables.mailOutbox.$inferInsert {
  const now = ctx.now()
  return {
    id: randomId(),
    kind: mail.kind,
    toAddress: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: htmlOf(mail.text, mail.language),
    createdAt: now,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    lastResponse: null,
    sentAt: null,
  }
}

/** Queues one mail on its own (its cause already committed); the worker sends it. */
export async function queueMail(ctx: AppContext, mail: Mail): Promise<MailRow> {
  requireMail(ctx)
  const [row] = await ctx.db.orm.insert(ctx.db.tables.mailOutbox).values(mailRow(ctx, mail)).returning()
  ctx.jobs.wake('outbox')
  return row!
}

/**
 * Queues a notice whose cause already stands (an account changed): nothing without an SMTP server, and a failure
 * to queue it is logged rather than answered, like the audit log's entries (the dashboard shows the change too).
 */
export async function queueNotice(ctx: AppContext, mail: Mail): Promise<void> {
  if (ctx.config.smtpUrl === undefined) return
  try {
    await queueMail(ctx, mail)
  } catch (error) {
    ctx.log.error(`the ${mail.kind} mail could not be queued`, error)
  }
}
