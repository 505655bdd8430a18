import { IntlMessageFormat } from 'intl-messageformat'
import type { ComponentChild, ComponentChildren } from 'preact'
import type english from '../../../src/core/i18n/dashboard/en.json'

/**
 * The dashboard's words, in the language the server chose for the page (docs/languages.md, The dashboard): the
 * page holds that one language's messages as JSON (`#dashboard-messages`, src/routes/dashboard/index.ts), so the
 * bundle carries no catalog; this formats them (ICU MessageFormat: plurals, numbers and dates through Intl in the
 * page's `lang`). The keys are typed from the English catalog: a key English lacks does not compile.
 */
export type MessageKey = keyof typeof english
export type MessageValues = Record<string, string | number | Date>

// Outside a page (a test that imports a formatter alone) there is no document and no message.
const page = typeof document === 'undefined' ? undefined : document
const block = page?.getElementById('dashboard-messages')
const messages: Record<string, string> = block?.textContent ? JSON.parse(block.textContent) : {}

/** The page's language (a BCP 47 tag of src/shared/languages.ts), for Intl. */
export const language = page?.documentElement.lang || 'en'

/** Whether the page holds `key`'s message. */
export const hasMessage = (key: MessageKey) => key in messages

const FORMATS = { date: { day: { year: 'numeric', month: 'short', day: 'numeric' } } } as const
const formats = new Map<string, IntlMessageFormat>()

function compiled(key: MessageKey): IntlMessageFormat {
  let format = formats.get(key)
  if (!format) {
    // A page without its words (it cannot happen with our pages) shows the key rather than nothing.
    format = new IntlMessageFormat(messages[key] ?? key, language, FORMATS)
    formats.set(key, format)
  }
  return format
}

export function t(key: MessageKey, values?: MessageValues): string {
  return String(compiled(key).format(values))
}

/**
 * A message with elements in it (`{command}` as a <code>): the parts in the language's order, for JSX. Values that
 * are elements stay elements; the words around them are the message's.
 */
export function tx(key: MessageKey, values: Record<string, string | number | ComponentChild>): ComponentChildren {
  return compiled(key).format<ComponentChild>(values) as ComponentChildren
}
