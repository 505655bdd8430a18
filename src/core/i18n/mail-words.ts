import { isLanguage, type Language } from '../../shared/languages'
import { type Translate, translators } from './translator'

const translatorOf = translators()

/**
 * The words of a mail to an account or an owner (docs/languages.md, Mails): the account's own language (PATCH
 * /api/me), else the one the request that caused the mail asked for (given only when that request is the
 * recipient's own: a forgotten password, a new email), else the instance's default (PDFSHARE_DEFAULT_LANGUAGE).
 */
export function mailWords(fallback: Language, input: { account?: string | null; asked?: Language }): Translate {
  return translatorOf(isLanguage(input.account) ? input.account : (input.asked ?? fallback))
}

/** A mail's paragraphs, as its plain text (core/mail/message.ts makes the HTML of it). */
export const paragraphs = (...lines: string[]) => lines.join('\n\n')
