/**
 * The languages the reader's pages speak (docs/languages.md), by the BCP 47 tag a link's `language`, the picker's
 * cookie and PDFSHARE_DEFAULT_LANGUAGE name them with. Here, not in core/i18n, because the settings, the API's
 * schema and the browser's scripts all need the list and none of them may import the core.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt-BR', 'nl', 'pl', 'ja', 'zh-Hans', 'ar', 'uk'] as const
export type Language = (typeof LANGUAGES)[number]

export const DEFAULT_LANGUAGE: Language = 'en'

export const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language)

/** Each language's name in itself: what the picker lists, so a reader finds their own whatever the page speaks. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  'pt-BR': 'Português (Brasil)',
  nl: 'Nederlands',
  pl: 'Polski',
  ja: '日本語',
  'zh-Hans': '简体中文',
  ar: 'العربية',
  uk: 'Українська',
}

/** The writing direction of a page in `language`. */
export const directionOf = (language: Language): 'ltr' | 'rtl' => (language === 'ar' ? 'rtl' : 'ltr')
