import type { AppContext } from '../context'
import type { UserRow } from '../../db/tables'
import { queueNotice } from '../mail/message'

/** What an admin changed about how an account is signed in to or recovered: each one its owner is told of. */
export type AdminChange =
  | { kind: 'email removed' }
  | { kind: 'sso link asked'; ssoEmail: string }
  | { kind: 'sso link withdrawn' }
  | { kind: 'two-factor reset'; passkeysRemoved: number }

function sentence(change: AdminChange, admin: string): string {
  switch (change.kind) {
    case 'email removed':
      return `${admin} removed this address from your account: links to choose a new password are no longer mailed here. You can set an address again on your Account page.`
    case 'sso link asked':
      return `${admin} asked that signing in through single sign-on as ${change.ssoEmail} open your account. If you use the account, this happens only once you allow it on your Account page; if that address is not yours, refuse it there.`
    case 'sso link withdrawn':
      return `${admin} withdrew the request that single sign-on open your account.`
    case 'two-factor reset':
      return `${admin} reset your two-factor sign-in (for a lost phone or key): an authenticator app and recovery codes no longer work${change.passkeysRemoved > 0 ? `, and ${change.passkeysRemoved} passkey(s) were removed` : ''}. You can set them up again on your Account page.`
  }
}

/**
 * Mails a user what an admin changed (docs/api.md, Admins), to the address the account had when the admin acted;
 * nothing when it had none or the server sends no mail. The dashboard's Account page shows the same changes from
 * the audit log, so nobody learns of them from mail alone.
 */
export async function tellOwner(ctx: AppContext, input: { user: UserRow; admin: string; changes: AdminChange[] }): Promise<void> {
  const to = input.user.email
  if (to === null || input.changes.length === 0) return
  const text = [
    `An admin changed your pdfshare account ${input.user.name} at ${ctx.config.publicUrl}:`,
    ...input.changes.map((change) => sentence(change, input.admin)),
    'Each change is also listed on your Account page. If you did not expect it, ask the admin why.',
  ].join('\n\n')
  await queueNotice(ctx, { kind: 'account change', to, subject: 'An admin changed your pdfshare account', text })
}
