import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../../shared/languages'

/** The cookie the language picker sets (docs/languages.md): one of the tags of shared/languages.ts. */
export const LANGUAGE_COOKIE = 'pdfshare_lang'

/** What a request tells of the language it wants, besides the link's own. */
export type LanguageAsk = { cookie: string | undefined; acceptLanguage: string | null }

/**
 * The language of a reader's page: the link's fixed `language`, else the picker's cookie, else the browser's
 * Accept-Language, else the instance's default (PDFSHARE_DEFAULT_LANGUAGE, itself `en` unless set).
 */
export function chooseLanguage(ask: LanguageAsk, options: { link?: string | null; fallback?: Language }): Language {
  if (isLanguage(options.link)) return options.link
  if (isLanguage(ask.cookie)) return ask.cookie
  return negotiate(ask.acceptLanguage) ?? options.fallback ?? DEFAULT_LANGUAGE
}

// Longer than any real header: the rest is not read (a header is not a way to make the server work).
const MAX_HEADER = 1000
const MAX_RANGES = 30

/** The ranges of an Accept-Language header, highest q first (equal q: in the order written); q=0 and `*` left out. */
export function parseAcceptLanguage(header: string | null): string[] {
  if (!header) return []
  const ranges: { tag: string; q: number; at: number }[] = []
  for (const [at, part] of header.slice(0, MAX_HEADER).split(',').slice(0, MAX_RANGES).entries()) {
    const [tag = '', ...params] = part.trim().split(';')
    const qParam = params.map((p) => p.trim()).find((p) => /^q=/i.test(p))
    const q = qParam === undefined ? 1 : Number(qParam.slice(2))
    if (!/^[a-z]{1,8}(-[a-z0-9]{1,8})*$/i.test(tag.trim()) || !(q > 0 && q <= 1)) continue
    ranges.push({ tag: tag.trim().toLowerCase(), q, at })
  }
  return ranges.sort((a, b) => b.q - a.q || a.at - b.at).map((range) => range.tag)
}

const BY_LOWER_CASE = new Map<string, Language>(LANGUAGES.map((tag) => [tag.toLowerCase(), tag]))

/** Chinese written in traditional characters: readers of it get simplified Chinese only when nothing else they asked for is here. */
const TRADITIONAL_CHINESE = /^zh-(hant|tw|hk|mo)(-|$)/

/**
 * The best of our languages for an Accept-Language header, or undefined when it names none of them. A range
 * matches its exact tag first, then by its language alone: `de-AT` is German, any Portuguese (`pt-PT`, `pt`) is
 * Brazil's, any Chinese in simplified characters (`zh`, `zh-CN`, `zh-SG`, `zh-Hans-…`) is `zh-Hans`. Traditional
 * Chinese (`zh-TW`, `zh-HK`, `zh-Hant`) is matched by simplified Chinese only after every other range was tried:
 * most of its readers read it, but would rather have a language they named.
 */
export function negotiate(header: string | null): Language | undefined {
  const ranges = parseAcceptLanguage(header)
  for (const range of ranges) {
    if (TRADITIONAL_CHINESE.test(range)) continue
    const match = BY_LOWER_CASE.get(range) ?? byLanguageAlone(range.split('-')[0]!)
    if (match) return match
  }
  return ranges.some((range) => TRADITIONAL_CHINESE.test(range)) ? 'zh-Hans' : undefined
}

function byLanguageAlone(language: string): Language | undefined {
  if (language === 'pt') return 'pt-BR'
  if (language === 'zh') return 'zh-Hans'
  return BY_LOWER_CASE.get(language)
}
