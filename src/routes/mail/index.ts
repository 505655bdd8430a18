import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { authFailures, FailureSchema } from '../../http/schemas'
import { MailListEnvelope, TestMailBody, TestMailEnvelope } from './model'
import { toMailDto } from '../../core/mail/presenter'
import { recentMail } from '../../core/mail/recent-mail'
import { sendTestMail } from '../../core/mail/send-test-mail'
import { askedLanguage } from '../../http/asked-language'

const tags = ['admin']

/** For admins: GET /api/admin/mail (the outbox, newest first) and POST /api/admin/mail/test (a mail sent now). */
export function mailRoutes(ctx: AppContext, auth: AuthGuard) {
  return new Elysia({ name: 'mail', prefix: '/api/admin/mail' })
    .use(auth)
    .get('', async () => ({ success: true as const, data: (await recentMail(ctx)).map(toMailDto) }), {
      auth: 'admin',
      response: { 200: MailListEnvelope, 403: FailureSchema, ...authFailures },
      detail: { summary: 'The latest 50 mails: to whom, what, and what the SMTP server answered', tags },
    })
    .post(
      '/test',
      async ({ body, audit, caller, request }) => {
        const answer = await sendTestMail(ctx, { to: body.to, by: caller.userId, asked: askedLanguage(request) })
        await audit('mail.test_sent', { to: body.to, accepted: answer.accepted })
        return { success: true as const, data: { accepted: answer.accepted, response: answer.response } }
      },
      {
        auth: 'admin',
        parse: jsonBody(TestMailBody, 'admin'),
        body: TestMailBody,
        response: {
          200: TestMailEnvelope,
          400: FailureSchema,
          403: FailureSchema,
          413: FailureSchema,
          415: FailureSchema,
          ...authFailures,
        },
        detail: {
          summary: 'Send a test mail now and answer exactly what the SMTP server said',
          description: 'A 400 when PDFSHARE_SMTP_URL is not set. A refusal is a 200 with accepted: false and the reply.',
          tags,
        },
      },
    )
}
