import type { AppContext } from '../context'
import { htmlOf, requireMail, senderOf } from './message'
import { type SmtpAnswer, smtpSender } from './transport'
import { randomId } from '../../lib/ids'

/** A test mail sent at once (not through the outbox), answering exactly what the SMTP server said. */
export async function sendTestMail(ctx: AppContext, to: string): Promise<SmtpAnswer> {
  requireMail(ctx)
  const sender = smtpSender(ctx.config.smtpUrl!)
  const text = `This is a test mail from pdfshare at ${ctx.config.publicUrl}.\n\nIf you can read it, the server can send mail.`
  try {
    return await sender.send({
      messageId: `<${randomId()}@${new URL(ctx.config.publicUrl).hostname}>`,
      from: senderOf(ctx.config),
      to,
      subject: 'pdfshare: a test mail',
      text,
      html: htmlOf(text),
    })
  } finally {
    sender.close()
  }
}
