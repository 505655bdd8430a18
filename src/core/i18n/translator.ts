import { IntlMessageFormat } from 'intl-messageformat'
import type { Language } from '../../shared/languages'
import { CATALOGS, type MessageKey } from './catalogs'

const UTC_TIME = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC', timeZoneName: 'short' } as const

export type MessageValues = Record<string, string | number | Date>

/** A language's messages, formatted: `t('gone.expired.title')`, `t('code.hint', { address, minutes })`. */
export type Translate = {
  (key: MessageKey, values?: MessageValues): string
  readonly language: Language
}

/**
 * Dates readers see are days, not instants, and the server names them the same for every reader: in UTC, as the
 * link's expiry is kept (`long`). The owners' notifications name instants, in UTC and saying so: a time of day
 * (`{at, time, hm}`: 09:05 UTC) and a day with its time (`{from, date, stamp}`: Nov 25, 2026, 09:05 UTC).
 */
export const MESSAGE_FORMATS = {
  date: {
    long: { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' },
    stamp: { year: 'numeric', month: 'short', day: 'numeric', ...UTC_TIME },
  },
  time: { hm: UTC_TIME },
} as const

/**
 * The formatter of `language`: each message is parsed once (on first use) and kept; a key the language lacks is
 * English's (the catalogs' check keeps that from shipping). Numbers, plurals and dates go through Intl.
 */
export function translator(language: Language): Translate {
  const compiled = new Map<MessageKey, IntlMessageFormat>()
  const t = (key: MessageKey, values?: MessageValues) => {
    let format = compiled.get(key)
    if (!format) {
      const own = CATALOGS[language][key]
      format = new IntlMessageFormat(own ?? CATALOGS.en[key] ?? key, own === undefined ? 'en' : language, MESSAGE_FORMATS)
      compiled.set(key, format)
    }
    return String(format.format(values))
  }
  return Object.assign(t, { language })
}

/** One formatter a language, each made when first asked for and kept by whoever holds the function (an app's routes). */
export function translators(): (language: Language) => Translate {
  const made = new Map<Language, Translate>()
  return (language) => {
    let t = made.get(language)
    if (!t) {
      t = translator(language)
      made.set(language, t)
    }
    return t
  }
}
