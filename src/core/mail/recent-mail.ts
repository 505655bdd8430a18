import { desc } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { MailRow } from '../../db/tables'

/** The latest mail of the outbox, newest first: what was sent, what waits, what failed, and the server's answers. */
export async function recentMail(ctx: AppContext, limit = 50): Promise<MailRow[]> {
  const { mailOutbox } = ctx.db.tables
  return ctx.db.orm.select().from(mailOutbox).orderBy(desc(mailOutbox.seq)).limit(limit)
}
