import { eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import { userIdNotFound } from '../../errors'
import type { Language } from '../../shared/languages'

/** Sets the language of the mails an account gets (docs/languages.md, Mails); null: none of its own. */
export async function setAccountLanguage(ctx: AppContext, input: { userId: string; language: Language | null }): Promise<void> {
  const { users } = ctx.db.tables
  const [user] = await ctx.db.orm
    .update(users)
    .set({ language: input.language })
    .where(eq(users.id, input.userId))
    .returning({ id: users.id })
  if (!user) throw userIdNotFound()
}
