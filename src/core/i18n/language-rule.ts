import type { Rule } from '../../lib/rule'
import { isLanguage, LANGUAGES } from '../../shared/languages'

export const LANGUAGE_RULE_TEXT = `language must be one of ${LANGUAGES.map((tag) => `"${tag}"`).join(', ')}, or null`

/** A `language` field (a link's, an account's): one of shared/languages.ts, or null for none of its own. */
export const languageRule: Rule = (value) => (value === null || isLanguage(value) ? undefined : LANGUAGE_RULE_TEXT)
