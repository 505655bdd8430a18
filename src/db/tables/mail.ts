import type { Kit } from './kit'

/** Mail (core/mail): the outbox of mail waiting to go out. */
export function mailTables(k: Kit) {
  /**
   * Mail waiting to go out, and what became of it (docs/operations.md, Mail): written in the same batch as what it is
   * about (an invitation…), sent by the mail worker beside the server, retried with the webhooks' backoff for a day.
   */
  const mailOutbox = k.table(
    'mail_outbox',
    {
      seq: k.seq(),
      /** The Message-ID's local part: the same on every attempt, so a receiving server can drop a repeat. */
      id: k.text('id').notNull().unique(),
      /** What it is (invitation, …), for the log. */
      kind: k.text('kind').notNull(),
      toAddress: k.text('to_address').notNull(),
      subject: k.text('subject').notNull(),
      textBody: k.text('text_body').notNull(),
      htmlBody: k.text('html_body').notNull(),
      createdAt: k.millis('created_at').notNull(),
      /** pending, sent or failed. */
      status: k.text('status').notNull(),
      attempts: k.integer('attempts').notNull().default(0),
      nextAttemptAt: k.millis('next_attempt_at').notNull(),
      /** The SMTP server's last answer (its reply line, or why it could not be reached). */
      lastResponse: k.text('last_response'),
      sentAt: k.millis('sent_at'),
    },
    (table) => [k.index('mail_outbox_due_idx').on(table.status, table.nextAttemptAt)],
  )

  return { mailOutbox }
}
