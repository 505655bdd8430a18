import { IntlMessageFormat } from 'intl-messageformat'

/**
 * The words the page's scripts show, in the language the server chose for the page (docs/languages.md): the
 * server puts them in the page as JSON (`#viewer-messages`, src/core/i18n/page-markup.ts); this formats them
 * (ICU MessageFormat: plurals and numbers through Intl, in the page's `lang`). No word is written in a script.
 */
const block = document.getElementById('viewer-messages')
const messages: Record<string, string> = block?.textContent ? JSON.parse(block.textContent) : {}
const language = document.documentElement.lang || 'en'
const formats = new Map<string, IntlMessageFormat>()

export function t(key: string, values?: Record<string, string | number>): string {
  let format = formats.get(key)
  if (!format) {
    // A page without its words (it cannot happen with our pages) shows the key rather than nothing.
    format = new IntlMessageFormat(messages[key] ?? key, language)
    formats.set(key, format)
  }
  return String(format.format(values))
}
