import type { AppContext } from '../../context'
import type { Mail } from '../../mail/message'

/** How long the link that confirms a new email works. */
export const EMAIL_CHANGE_HOURS = 24

/** To the address asked for: the link that makes it the account's email. */
export function confirmationMail(ctx: AppContext, input: { userName: string; email: string; secret: string }): Mail {
  const url = `${ctx.config.publicUrl}/app#/email/${input.secret}`
  return {
    kind: 'email confirmation',
    to: input.email,
    subject: 'Confirm your email for pdfshare',
    text: [
      `The pdfshare account ${input.userName} at ${ctx.config.publicUrl} asked to use this address: links to choose a new password would be mailed here.`,
      `If that is you, confirm it here (the link works once, for ${EMAIL_CHANGE_HOURS} hours):\n${url}`,
      'If it is not you, ignore this mail: nothing changes without the link.',
    ].join('\n\n'),
  }
}

/**
 * To an address another account already has: no link (it could not be used), and the same answer to whoever asked,
 * so the asker learns nothing. Its owner learns someone tried.
 */
export function addressTakenMail(ctx: AppContext, input: { userName: string; email: string }): Mail {
  return {
    kind: 'email confirmation',
    to: input.email,
    subject: 'Confirm your email for pdfshare',
    text: [
      `The pdfshare account ${input.userName} at ${ctx.config.publicUrl} asked to use this address.`,
      'This address already belongs to an account there, so nothing changed, and one address cannot be on two accounts.',
      'If you did not ask for this, there is nothing to do.',
    ].join('\n\n'),
  }
}

/** To the address an account had, once a new one is confirmed: whoever holds the old mailbox learns of it. */
export function emailChangedMail(ctx: AppContext, input: { userName: string; previous: string; email: string }): Mail {
  return {
    kind: 'email changed',
    to: input.previous,
    subject: 'Your pdfshare email was changed',
    text: [
      `The email of your pdfshare account ${input.userName} at ${ctx.config.publicUrl} is now ${input.email}, confirmed from that mailbox. Links to choose a new password go there, no longer here.`,
      'If you did not do this, sign in and change it back, change your password, and tell an admin.',
    ].join('\n\n'),
  }
}

/** To the address an account had, once its owner removed it: whoever holds the old mailbox learns of it. */
export function emailRemovedMail(ctx: AppContext, input: { userName: string; previous: string }): Mail {
  return {
    kind: 'email changed',
    to: input.previous,
    subject: 'Your pdfshare email was changed',
    text: [
      `The email of your pdfshare account ${input.userName} at ${ctx.config.publicUrl} was removed: links to choose a new password are mailed nowhere now.`,
      'If you did not do this, sign in and set it again, change your password, and tell an admin.',
    ].join('\n\n'),
  }
}
