import type { PageViewer } from './page-viewer'
import type { FindBar } from './find-bar'
import type { Toolbar } from './toolbar'

/**
 * Shortcuts: Ctrl/⌘+F or / find · n, j, → next page · p, k, ← previous page · Home / End first / last page ·
 * + and − zoom (also with Ctrl/⌘, replacing the browser's page zoom) · 0 fit width · Esc closes find.
 */
export function bindKeyboard(viewer: PageViewer, toolbar: Toolbar, find: FindBar): void {
  window.addEventListener('keydown', (event) => {
    if (viewer.pagesCount === 0) return // nothing loaded (yet): leave the browser's own shortcuts alone
    const modifier = event.ctrlKey || event.metaKey
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement
    if (modifier && event.key.toLowerCase() === 'f') return handled(event, find.open)
    if (modifier && (event.key === '+' || event.key === '=')) return handled(event, toolbar.zoomIn)
    if (modifier && event.key === '-') return handled(event, toolbar.zoomOut)
    if (modifier && event.key === '0') return handled(event, () => toolbar.setZoom('page-width'))
    if (typing || modifier || event.altKey) return
    switch (event.key) {
      case '/':
        return handled(event, find.open)
      case 'n':
      case 'j':
      case 'ArrowRight':
        return handled(event, () => viewer.nextPage())
      case 'p':
      case 'k':
      case 'ArrowLeft':
        return handled(event, () => viewer.previousPage())
      case 'Home':
        return handled(event, () => (viewer.currentPageNumber = 1))
      case 'End':
        return handled(event, () => (viewer.currentPageNumber = viewer.pagesCount))
      case '+':
      case '=':
        return handled(event, toolbar.zoomIn)
      case '-':
        return handled(event, toolbar.zoomOut)
      case '0':
        return handled(event, () => toolbar.setZoom('page-width'))
      case 'Escape':
        if (find.isOpen()) return handled(event, find.close)
    }
  })
}

function handled(event: KeyboardEvent, action: () => void): void {
  event.preventDefault()
  action()
}
