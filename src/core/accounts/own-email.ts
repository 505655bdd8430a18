import type { UserRow } from '../../db/tables'
import type { AppContext } from '../context'
import { queueMail } from '../mail/message'
import { setEmail } from './password-reset'
import type { Reauthenticated } from './reauthenticate'

/**
 * The owner sets the email password resets go to (PUT /api/me/email). Whoever controls that address can choose the
 * password, so the old address is told of the change (when the server has mail): an owner whose session was
 * taken over learns of it where the taker cannot hide it.
 */
export async function setOwnEmail(ctx: AppContext, input: { owner: Reauthenticated; email: string | null }): Promise<UserRow> {
  const before = input.owner.user.email
  const user = await setEmail(ctx, { userId: input.owner.user.id, email: input.email })
  if (before !== null && before !== user.email && ctx.config.smtpUrl !== undefined) {
    const text = [
      `The email that password resets of ${user.name} at ${ctx.config.publicUrl} go to was changed from this address to ${user.email ?? 'none'}.`,
      'If you made this change, there is nothing to do.',
      `If you did not, someone signed in as you and knows your password: ask an admin of ${ctx.config.publicUrl} to disable the account until it is yours again.`,
    ].join('\n\n')
    await queueMail(ctx, { kind: 'email changed', to: before, subject: 'Your pdfshare reset email changed', text })
  }
  return user
}
