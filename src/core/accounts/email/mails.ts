import type { AppContext } from '../../context'
import type { Translate } from '../../i18n/translator'
import { paragraphs } from '../../i18n/mail-words'
import type { Mail } from '../../mail/message'

/** How long the link that confirms a new email works. */
export const EMAIL_CHANGE_HOURS = 24

/** To the address asked for: the link that makes it the account's email; in `t`'s language, as each mail below. */
export function confirmationMail(ctx: AppContext, t: Translate, input: { userName: string; email: string; secret: string }): Mail {
  const url = `${ctx.config.publicUrl}/app#/email/${input.secret}`
  return {
    kind: 'email confirmation',
    to: input.email,
    subject: t('mail.email.confirm.subject'),
    text: paragraphs(
      t('mail.email.confirm.asked', { name: input.userName, site: ctx.config.publicUrl }),
      t('mail.email.confirm.link', { hours: EMAIL_CHANGE_HOURS, url }),
      t('mail.email.confirm.ignore'),
    ),
    language: t.language,
  }
}

/**
 * To an address another account already has: no link (it could not be used), and the same answer to whoever asked,
 * so the asker learns nothing. Its owner learns someone tried, in their own language.
 */
export function addressTakenMail(ctx: AppContext, t: Translate, input: { userName: string; email: string }): Mail {
  return {
    kind: 'email confirmation',
    to: input.email,
    subject: t('mail.email.confirm.subject'),
    text: paragraphs(
      t('mail.email.taken.asked', { name: input.userName, site: ctx.config.publicUrl }),
      t('mail.email.taken.taken'),
      t('mail.email.taken.ignore'),
    ),
    language: t.language,
  }
}

/** To the address an account had, once a new one is confirmed: whoever holds the old mailbox learns of it. */
export function emailChangedMail(ctx: AppContext, t: Translate, input: { userName: string; previous: string; email: string }): Mail {
  return {
    kind: 'email changed',
    to: input.previous,
    subject: t('mail.email.changed.subject'),
    text: paragraphs(
      t('mail.email.changed.changed', { name: input.userName, site: ctx.config.publicUrl, email: input.email }),
      t('mail.email.changed.warn'),
    ),
    language: t.language,
  }
}

/** To the address an account had, once its owner removed it: whoever holds the old mailbox learns of it. */
export function emailRemovedMail(ctx: AppContext, t: Translate, input: { userName: string; previous: string }): Mail {
  return {
    kind: 'email changed',
    to: input.previous,
    subject: t('mail.email.changed.subject'),
    text: paragraphs(t('mail.email.removed.removed', { name: input.userName, site: ctx.config.publicUrl }), t('mail.email.removed.warn')),
    language: t.language,
  }
}
