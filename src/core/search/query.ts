import { badRequest } from '../../errors'

/**
 * One term of a search: a word or a quoted phrase, as the words the index holds (letters, digits and marks;
 * everything else separates words, as the index's tokenizer does). `prefix`: its last word may go on (`contr*`);
 * `exclude`: pages with it are left out (`-word`); `cjk`: it holds Chinese, Japanese or Korean script, which is
 * written without spaces, so it is looked for as a substring rather than as words.
 */
export type Term = { words: string[]; prefix: boolean; exclude: boolean; cjk: boolean }

/** A parsed search: its terms, at least one of them not excluded. */
export type SearchQuery = { terms: Term[] }

/** The most terms one search may have (each is a condition of the query). */
const MAX_TERMS = 12
/** A word longer than this is not a word of any language; it is cut here (the index keeps what the PDF has). */
const MAX_WORD = 100

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/u

/**
 * Reads what a person typed into terms, never handing their text to a full-text engine's own syntax: a phrase
 * in double quotes (an unclosed quote runs to the end), `-` before a word or phrase to exclude it, `*` after a
 * word for a prefix. Characters that are neither letters nor digits only separate words, so a stray quote,
 * bracket or operator of FTS5 or tsquery is harmless. A query with no word to look for is a 400.
 */
export function parseQuery(text: string): SearchQuery {
  const terms: Term[] = []
  let at = 0
  while (at < text.length) {
    const char = text[at]!
    if (/\s/u.test(char)) {
      at++
      continue
    }
    const exclude = char === '-' && at + 1 < text.length && !/\s/u.test(text[at + 1]!)
    if (exclude) at++
    let raw: string
    let prefix = false
    if (text[at] === '"') {
      const close = text.indexOf('"', at + 1)
      const end = close === -1 ? text.length : close
      raw = text.slice(at + 1, end)
      at = end + 1
    } else {
      const end = text.slice(at).search(/\s/u)
      raw = end === -1 ? text.slice(at) : text.slice(at, at + end)
      at = end === -1 ? text.length : at + end
      prefix = raw.endsWith('*')
    }
    const words = raw
      .normalize('NFC')
      .split(SEPARATORS)
      .filter((word) => word.length > 0)
      .map((word) => word.slice(0, MAX_WORD))
    if (words.length === 0) continue
    const cjk = hasCjk(words.join(''))
    terms.push({ words, prefix: prefix && !cjk, exclude, cjk })
  }
  if (terms.length > MAX_TERMS) throw badRequest(`A search may have at most ${MAX_TERMS} words or phrases`)
  if (!terms.some((term) => !term.exclude))
    throw badRequest('Search for at least one word or phrase (letters or digits); -word only leaves words out')
  return { terms }
}

/** Chinese, Japanese and Korean text, which the word index does not split into words (docs/search.md). */
export const hasCjk = (text: string) => CJK.test(text)

/** A CJK term as a LIKE pattern: its words in order, anything between (they hold no LIKE wildcard: letters only). */
export const likePattern = (term: Term) => `%${term.words.join('%')}%`

/** Folds text as the index does for matching: diacritics removed, lower case (what snippets mark uses too). */
export const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
