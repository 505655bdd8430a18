import type { Transporter } from 'nodemailer'
import { redactPasswords } from '../../lib/redact'

/** A mail as it leaves: the outbox row's fields, with its From and a Message-ID that stays the same on retries. */
export type OutgoingMail = { messageId: string; from: string; to: string; subject: string; text: string; html: string }

/** What the SMTP server said: accepted (its reply line), or refused for now (retry) or for good. */
export type SmtpAnswer = { accepted: true; response: string } | { accepted: false; temporary: boolean; response: string }

export type SmtpSender = { send(mail: OutgoingMail): Promise<SmtpAnswer>; close(): void }

/**
 * Sends through the SMTP server of PDFSHARE_SMTP_URL with nodemailer: `smtps://` is TLS from the first byte,
 * `smtp://` upgrades with STARTTLS whenever the server offers it (the certificate checked against the host name;
 * a private CA goes in NODE_EXTRA_CA_CERTS). The time limits keep every attempt well inside the worker's lease,
 * so a hung server never makes another instance send the same mail again.
 */
export function smtpSender(smtpUrl: string): SmtpSender {
  const url = new URL(smtpUrl)
  // nodemailer is loaded with the first mail: a server that sends none never holds it in memory.
  let transport: Promise<Transporter> | undefined
  const connect = async () =>
    (await import('nodemailer')).default.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      // Kept connections (two, like the worker's sends at once), each used for up to 100 mails: a burst of codes
      // does not pay a TCP handshake, STARTTLS and AUTH per mail.
      pool: true,
      maxConnections: 2,
      maxMessages: 100,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      tls: { servername: url.hostname },
    })
  return {
    async send(mail) {
      try {
        // A failed load is not kept: the next mail tries again.
        transport ??= connect().catch((error: unknown) => {
          transport = undefined
          throw error
        })
        const info = await (await transport).sendMail({
          messageId: mail.messageId,
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        })
        return { accepted: true, response: String(info.response ?? 'accepted') }
      } catch (error) {
        return refusalOf(error)
      }
    },
    close: () => void transport?.then((opened) => opened.close()),
  }
}

/** A failed send as an answer: a 5xx reply is for good (except a refused sign-in: the admin may fix the account), anything else is for now. */
export function refusalOf(error: unknown): SmtpAnswer {
  const { responseCode, response, message, code } = error as { responseCode?: number; response?: string; message?: string; code?: string }
  const said = redactPasswords(response ?? message ?? String(error))
  const permanent = typeof responseCode === 'number' && responseCode >= 500 && code !== 'EAUTH'
  return { accepted: false, temporary: !permanent, response: said }
}
