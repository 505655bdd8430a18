import { fold, type Term } from './query'

/** A piece of a page's text around its first match, and where the matched words are in it. */
export type Snippet = { text: string; matches: [start: number, length: number][] }

/** Characters of a snippet: about two lines of a page. */
const SNIPPET_CHARS = 200
/** Characters shown before the first match. */
const LEAD = 60
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u

/**
 * Where the query's words are in a page's text, found as the index found them (diacritics and case folded:
 * "creme" marks "Crème"), as UTF-16 offsets and lengths into the snippet, which is the page's text from a little
 * before the first match. Words match whole (or as prefixes for `contr*`), CJK terms as substrings; excluded
 * terms mark nothing. Computed here, not by either database, so both answer the same snippet.
 */
export function snippetOf(body: string, terms: Term[]): Snippet {
  // The folded text, with where each of its UTF-16 units came from in the body.
  let folded = ''
  const origin: number[] = []
  for (let index = 0; index < body.length; ) {
    const char = String.fromCodePoint(body.codePointAt(index)!)
    const folding = fold(char)
    folded += folding
    for (let unit = 0; unit < folding.length; unit++) origin.push(index)
    index += char.length
  }
  origin.push(body.length)
  const endOf = (foldedEnd: number) => (foldedEnd >= origin.length - 1 ? body.length : origin[foldedEnd]!)

  const found: [number, number][] = []
  for (const term of terms.filter((term) => !term.exclude)) {
    for (const [position, word] of term.words.entries()) {
      const needle = fold(word)
      const prefix = term.cjk || (term.prefix && position === term.words.length - 1)
      for (let at = folded.indexOf(needle); at !== -1 && needle.length > 0; at = folded.indexOf(needle, at + needle.length)) {
        const end = at + needle.length
        const startsWord = term.cjk || at === 0 || !WORD_CHAR.test(folded[at - 1]!)
        const endsWord = prefix || end >= folded.length || !WORD_CHAR.test(folded[end]!)
        if (startsWord && endsWord) found.push([origin[at]!, endOf(end)])
      }
    }
  }
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1])
  const first = found[0]?.[0] ?? 0
  let start = Math.max(0, first - LEAD)
  // Start at a word's beginning, when one is near.
  const space = body.slice(start, first).search(/\s/u)
  if (start > 0 && space !== -1) start += space + 1
  const end = Math.min(body.length, start + SNIPPET_CHARS)
  const matches: Snippet['matches'] = []
  let covered = start
  for (const [from, to] of found) {
    if (from < covered || to > end) continue // overlapping an earlier mark, or past the snippet
    matches.push([from - start, to - from])
    covered = to
  }
  return { text: body.slice(start, end).replace(/\s/gu, ' '), matches }
}
