import type { EventBus } from 'pdfjs-dist/web/pdf_viewer.mjs'
import type { ImagePage, Word } from './image-page'

/** pdf.js's find states, as the find bar reads them (find-bar.ts). */
const FOUND = 0
const NOT_FOUND = 1
/** Pages' texts fetched at once while a search reads them all. */
const READING_AT_ONCE = 4

type Match = { page: number; words: number[] }

/**
 * Find over the pages' texts of the image viewer, answering the find bar as pdf.js's find controller does: the
 * first search reads every page's text (a few at a time), every match is highlighted in the text laid over the
 * images, and Enter / Shift+Enter go to the next and previous match, scrolling its page into view.
 */
export function startImageFind(
  eventBus: EventBus,
  pages: ImagePage[],
  show: (page: ImagePage) => void,
  goTo: (page: number) => void,
): void {
  let matches: Match[] = []
  let at = -1
  let query = ''
  let generation = 0

  const textOf = (page: ImagePage) => {
    if (!page.text) show(page)
    return page.text ?? Promise.resolve([])
  }
  const highlight = () => {
    for (const page of pages)
      for (const span of page.layer?.querySelectorAll('.highlight') ?? []) span.classList.remove('highlight', 'selected')
    for (const [index, match] of matches.entries()) {
      const layer = pages[match.page - 1]?.layer
      for (const word of match.words) {
        const span = layer?.querySelector(`[data-word="${word}"]`)
        span?.classList.add('highlight')
        if (index === at) span?.classList.add('selected')
      }
    }
  }
  const report = () => {
    const matchesCount = { current: at + 1, total: matches.length }
    eventBus.dispatch('updatefindmatchescount', { source: null, matchesCount })
    eventBus.dispatch('updatefindcontrolstate', { source: null, state: matches.length ? FOUND : NOT_FOUND, matchesCount })
  }
  const select = async (index: number) => {
    at = index
    const match = matches[at]
    if (match) {
      goTo(match.page)
      await pages[match.page - 1]!.text // its layer is laid once its text is in
      pages[match.page - 1]!.layer?.querySelector(`[data-word="${match.words[0]}"]`)?.scrollIntoView({ block: 'nearest' })
    }
    highlight()
    report()
  }

  const search = async (wanted: string) => {
    const mine = ++generation
    query = wanted
    matches = []
    at = -1
    if (!wanted.trim()) return highlight()
    const needle = wanted.toLocaleLowerCase()
    const texts: { words: Word[] }[] = []
    for (let start = 0; start < pages.length; start += READING_AT_ONCE) {
      const batch = await Promise.all(pages.slice(start, start + READING_AT_ONCE).map(textOf))
      if (mine !== generation) return // a newer query took over
      for (const words of batch) texts.push({ words })
    }
    for (const [index, { words }] of texts.entries()) matches.push(...matchesIn(index + 1, words, needle))
    await select(matches.length ? 0 : -1)
  }

  eventBus.on('find', ({ type, query: wanted, findPrevious }: { type: string; query: string; findPrevious: boolean }) => {
    if (type === 'again' && wanted === query && matches.length)
      return void select((at + (findPrevious ? -1 : 1) + matches.length) % matches.length)
    void search(wanted)
  })
  eventBus.on('findbarclose', () => {
    matches = []
    at = -1
    query = ''
    generation++
    highlight()
  })
}

/** Where `needle` (lower case) occurs in a page's words, read as lines of words separated by single spaces. */
export function matchesIn(page: number, words: readonly Word[], needle: string): Match[] {
  let text = ''
  const wordAt: number[] = []
  for (const [index, word] of words.entries()) {
    const start = text.length
    text += word[4].toLocaleLowerCase()
    for (let i = start; i < text.length; i++) wordAt[i] = index
    text += ' ' // a line's end is a space too: a phrase may run on to the next line
    wordAt[text.length - 1] = index
  }
  const found: Match[] = []
  for (let from = text.indexOf(needle); from >= 0; from = text.indexOf(needle, from + Math.max(1, needle.length))) {
    const covered = new Set<number>()
    for (let i = from; i < from + needle.length; i++) covered.add(wordAt[i]!)
    found.push({ page, words: [...covered] })
  }
  return found
}
