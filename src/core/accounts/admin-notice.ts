import type { AppContext } from '../context'
import type { UserRow } from '../../db/tables'
import { mailWords, paragraphs } from '../i18n/mail-words'
import type { Translate } from '../i18n/translator'
import { queueNotice } from '../mail/message'

/** What an admin changed about how an account is signed in to or recovered: each one its owner is told of. */
export type AdminChange =
  | { kind: 'email removed' }
  | { kind: 'sso link asked'; ssoEmail: string }
  | { kind: 'sso link withdrawn' }
  | { kind: 'two-factor reset'; passkeysRemoved: number }

function sentence(t: Translate, change: AdminChange, admin: string): string {
  switch (change.kind) {
    case 'email removed':
      return t('mail.admin.emailRemoved', { admin })
    case 'sso link asked':
      return t('mail.admin.ssoAsked', { admin, ssoEmail: change.ssoEmail })
    case 'sso link withdrawn':
      return t('mail.admin.ssoWithdrawn', { admin })
    case 'two-factor reset': {
      const reset = t('mail.admin.twoFactorReset', { admin })
      return change.passkeysRemoved > 0 ? `${reset} ${t('mail.admin.passkeysRemoved', { passkeys: change.passkeysRemoved })}` : reset
    }
  }
}

/**
 * Mails a user what an admin changed (docs/api.md, Admins), to the address the account had when the admin acted;
 * nothing when it had none or the server sends no mail. The dashboard's Account page shows the same changes from
 * the audit log, so nobody learns of them from mail alone. In the account's language, else the instance's default
 * (the request was the admin's, whose browser says nothing of the user's).
 */
export async function tellOwner(ctx: AppContext, input: { user: UserRow; admin: string; changes: AdminChange[] }): Promise<void> {
  const to = input.user.email
  if (to === null || input.changes.length === 0) return
  const t = mailWords(ctx.config.defaultLanguage, { account: input.user.language })
  const text = paragraphs(
    t('mail.admin.intro', { name: input.user.name, site: ctx.config.publicUrl }),
    ...input.changes.map((change) => sentence(t, change, input.admin)),
    t('mail.admin.outro'),
  )
  await queueNotice(ctx, { kind: 'account change', to, subject: t('mail.admin.subject'), text, language: t.language })
}
