import type { EventBus } from 'pdfjs-dist/web/pdf_viewer.mjs'
import { t } from './messages'

const FOUND = 0
const NOT_FOUND = 1
const WRAPPED = 2

export type FindBar = { open(): void; close(): void; isOpen(): boolean }

/** Find in document: the query goes to pdf.js's find controller, which highlights matches in the text layer. */
export function createFindBar(eventBus: EventBus): FindBar {
  const bar = document.getElementById('find-bar') as HTMLElement
  const input = document.getElementById('find-input') as HTMLInputElement
  const result = document.getElementById('find-result') as HTMLElement
  const toggle = document.getElementById('find-toggle') as HTMLButtonElement

  const dispatch = (type: '' | 'again', findPrevious = false) =>
    eventBus.dispatch('find', {
      source: bar,
      type,
      query: input.value,
      caseSensitive: false,
      entireWord: false,
      highlightAll: true,
      findPrevious,
      matchDiacritics: false,
    })

  const open = () => {
    bar.hidden = false
    toggle.setAttribute('aria-expanded', 'true')
    input.focus()
    input.select()
  }
  const close = () => {
    bar.hidden = true
    toggle.setAttribute('aria-expanded', 'false')
    eventBus.dispatch('findbarclose', { source: bar })
  }

  input.addEventListener('input', () => dispatch(''))
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault()
      dispatch('again', event.shiftKey)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      close()
    }
  })
  document.getElementById('find-previous')!.addEventListener('click', () => dispatch('again', true))
  document.getElementById('find-next')!.addEventListener('click', () => dispatch('again', false))
  document.getElementById('find-close')!.addEventListener('click', close)
  toggle.addEventListener('click', () => (bar.hidden ? open() : close()))

  eventBus.on('updatefindmatchescount', ({ matchesCount }: { matchesCount: { current: number; total: number } }) => {
    result.textContent = matchesCount.total ? t('viewer.find.count', matchesCount) : ''
  })
  eventBus.on('updatefindcontrolstate', ({ state, matchesCount }: { state: number; matchesCount: { current: number; total: number } }) => {
    if (state === NOT_FOUND) result.textContent = input.value ? t('viewer.find.none') : ''
    else if (state === FOUND || state === WRAPPED) result.textContent = matchesCount.total ? t('viewer.find.count', matchesCount) : ''
  })

  return { open, close, isOpen: () => !bar.hidden }
}
