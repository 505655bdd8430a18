import type { ImagePage, PageLink, Word } from './image-page'
import { t } from './messages'

/**
 * The page's words over its image: transparent text in each word's box, in reading order, for find, selection and
 * screen readers. One box a line (as pdf.js's text layer has one a run), its words inline in it with a space
 * between them, each moved and sized to its place on the image: the layer's innerText, what a screen reader reads
 * and the browser's find see the line's words with their spaces, and a line break between lines.
 */
export function layText(page: ImagePage, words: readonly Word[]): void {
  const layer = document.createElement('div')
  layer.className = 'image-text'
  let first = 0
  for (const [index, word] of words.entries()) {
    if (word[5] === 1 || index === words.length - 1) {
      layer.append(lineOf(words.slice(first, index + 1), first))
      first = index + 1
    }
  }
  page.layer = layer
  page.div.append(layer)
}

/** One line of words (numbered from `first` on the page, as find marks them), boxed as the union of its words. */
function lineOf(words: readonly Word[], first: number): HTMLDivElement {
  const left = Math.min(...words.map((word) => word[0]))
  const top = Math.min(...words.map((word) => word[1]))
  const width = Math.max(...words.map((word) => word[0] + word[2])) - left || 1
  const height = Math.max(...words.map((word) => word[1] + word[3])) - top || 1
  const line = document.createElement('div')
  line.className = 'image-line'
  place(line, [left, top, width, height])
  let end = left
  for (const [index, [wordLeft, wordTop, wordWidth, wordHeight, text]] of words.entries()) {
    if (index > 0) line.append(' ') // laid out at no width (the line's font size is 0), read and copied as a space
    const span = document.createElement('span')
    span.textContent = text
    span.dataset.word = String(first + index)
    // Inline, each after the one before: its gap from that one's end, its width and height, and how far below the line's top.
    span.style.marginLeft = `${((wordLeft - end) / width) * 100}%`
    span.style.width = `${(wordWidth / width) * 100}%`
    span.style.height = `${(wordHeight / height) * 100}%`
    span.style.top = `${((wordTop - top) / height) * 100}%`
    span.style.fontSize = `calc(var(--page-height) * ${(wordHeight * 0.86).toFixed(5)})`
    end = wordLeft + wordWidth
    line.append(span)
  }
  return line
}

const WEB = new Set(['http:', 'https:'])

/**
 * The page's links over its image (what the server read of them: web and mail addresses, and the document's own
 * pages), checked again here: an address opens only when it is http, https or mailto, in a new tab for the web,
 * with no referrer and no opener; a page of the document is shown in place. Anything else is no link.
 */
export function layLinks(page: ImagePage, links: readonly PageLink[], goTo: (page: number) => void, pages: number): void {
  const layer = document.createElement('div')
  layer.className = 'image-links'
  for (const [left, top, width, height, target] of links) {
    const link = document.createElement('a')
    if (typeof target === 'number') {
      if (!Number.isInteger(target) || target < 1 || target > pages) continue
      link.href = `#page=${target}`
      link.setAttribute('aria-label', t('viewer.linkToPage', { page: target }))
      link.addEventListener('click', (event) => {
        event.preventDefault()
        goTo(target)
      })
    } else {
      const url = typeof target === 'string' && URL.canParse(target) ? new URL(target) : null
      if (!url || !(WEB.has(url.protocol) || url.protocol === 'mailto:')) continue
      link.href = url.href
      link.rel = 'noopener noreferrer'
      if (WEB.has(url.protocol)) link.target = '_blank'
      link.setAttribute('aria-label', url.protocol === 'mailto:' ? url.pathname : url.href)
    }
    link.title = link.getAttribute('aria-label') ?? ''
    place(link, [left, top, width, height])
    layer.append(link)
  }
  if (layer.childElementCount > 0) page.div.append(layer)
}

function place(element: HTMLElement, [left, top, width, height]: readonly number[]): void {
  element.style.left = `${left! * 100}%`
  element.style.top = `${top! * 100}%`
  element.style.width = `${width! * 100}%`
  element.style.height = `${height! * 100}%`
}
