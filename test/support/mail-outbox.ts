import { eq } from 'drizzle-orm'
import type { MailWorker } from '../../src/core/mail/mail-worker'
import { eventually } from './eventually'
import type { TestServer } from './harness'
import type { startSmtpServer } from './smtp'

/**
 * The text of every mail to `to` so far (quoted-printable undone), once the outbox holds nothing pending and the
 * test SMTP server reported every sent mail: whichever worker sent them (this process's, or a balanced
 * instance's on the postgres-s3-lb backend).
 */
export async function mailsTo(
  server: TestServer,
  smtp: Awaited<ReturnType<typeof startSmtpServer>>,
  worker: MailWorker,
  to: string,
): Promise<string[]> {
  const { mailOutbox } = server.ctx.db.tables
  worker.nudge()
  await eventually(async () => {
    const pending = await server.ctx.db.orm.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.status, 'pending'))
    const sent = await server.ctx.db.orm.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.status, 'sent'))
    if (pending.length > 0 || sent.length !== smtp.received.length) throw new Error(`${pending.length} mails pending`)
  })
  return smtp.received.filter((one) => one.to.includes(to)).map((one) => one.data.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
}
