import { eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import { htmlOf, requireMail, senderOf } from './message'
import { type SmtpAnswer, smtpSender } from './transport'
import { randomId } from '../../lib/ids'
import { mailWords, paragraphs } from '../i18n/mail-words'
import type { Language } from '../../shared/languages'

/**
 * A test mail sent at once (not through the outbox), answering exactly what the SMTP server said. In the language
 * of the admin who asked (`by`: their account's, else the one their request `asked` for), else the instance's default.
 */
export async function sendTestMail(ctx: AppContext, input: { to: string; by?: string; asked?: Language }): Promise<SmtpAnswer> {
  requireMail(ctx)
  const { users } = ctx.db.tables
  const [admin] = input.by ? await ctx.db.orm.select({ language: users.language }).from(users).where(eq(users.id, input.by)) : []
  const t = mailWords(ctx.config.defaultLanguage, { account: admin?.language, asked: input.asked })
  const text = paragraphs(t('mail.test.sent', { site: ctx.config.publicUrl }), t('mail.test.works'))
  const sender = smtpSender(ctx.config.smtpUrl!)
  try {
    return await sender.send({
      messageId: `<${randomId()}@${new URL(ctx.config.publicUrl).hostname}>`,
      from: senderOf(ctx.config),
      to: input.to,
      subject: t('mail.test.subject'),
      text,
      html: htmlOf(text, t.language),
    })
  } finally {
    sender.close()
  }
}
