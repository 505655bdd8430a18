import type { PageViewer } from './page-viewer'
import { t } from './messages'

const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4]

const byId = <T extends HTMLElement>(id: string) => {
  const element = document.getElementById(id)
  if (!element) throw new Error(`#${id} is missing from the page`)
  return element as T
}

export type Toolbar = { zoomIn(): void; zoomOut(): void; setZoom(value: string): void; sync(): void; enable(): void }

/**
 * Page number / count, previous / next, and zoom (fit width, fit page, steps, + and −), bound by id to the toolbar
 * the server puts in the page (src/routes/share/answers/toolbar-markup.ts).
 */
export function createToolbar(viewer: PageViewer): Toolbar {
  const pageInput = byId<HTMLInputElement>('page-number')
  const pageCount = byId<HTMLElement>('page-count')
  const previous = byId<HTMLButtonElement>('previous-page')
  const next = byId<HTMLButtonElement>('next-page')
  const zoomSelect = byId<HTMLSelectElement>('zoom')
  const customZoom = byId<HTMLOptionElement>('zoom-custom')

  const sync = () => {
    const count = viewer.pagesCount
    const page = viewer.currentPageNumber
    pageInput.value = String(page)
    pageInput.max = String(count)
    pageCount.textContent = String(count)
    previous.disabled = page <= 1
    next.disabled = page >= count
    const preset = viewer.currentScaleValue
    if ([...zoomSelect.options].some((option) => option.value === preset && option !== customZoom)) {
      zoomSelect.value = preset
      customZoom.hidden = true
    } else {
      customZoom.hidden = false
      customZoom.textContent = t('viewer.zoomPercent', { scale: Math.round(viewer.currentScale * 100) / 100 })
      zoomSelect.value = 'custom'
    }
  }

  const step = (direction: 1 | -1) => {
    const current = viewer.currentScale
    const candidates =
      direction > 0 ? ZOOM_STEPS.filter((s) => s > current + 0.001) : ZOOM_STEPS.filter((s) => s < current - 0.001).reverse()
    const target = candidates[0]
    if (target !== undefined) viewer.currentScaleValue = String(target)
  }

  pageInput.addEventListener('change', () => {
    const wanted = Math.round(Number(pageInput.value))
    if (wanted >= 1 && wanted <= viewer.pagesCount) viewer.currentPageNumber = wanted
    sync()
  })
  previous.addEventListener('click', () => viewer.previousPage())
  next.addEventListener('click', () => viewer.nextPage())
  byId('zoom-in').addEventListener('click', () => step(1))
  byId('zoom-out').addEventListener('click', () => step(-1))
  zoomSelect.addEventListener('change', () => {
    if (zoomSelect.value !== 'custom') viewer.currentScaleValue = zoomSelect.value
  })

  return {
    // The controls stay disabled until a document is there to control (and stay so in the error state).
    enable: () => {
      for (const control of [pageInput, previous, next, zoomSelect, byId('zoom-in'), byId('zoom-out'), byId('find-toggle')]) {
        ;(control as HTMLInputElement).disabled = false
      }
    },
    zoomIn: () => step(1),
    zoomOut: () => step(-1),
    setZoom: (value) => (viewer.currentScaleValue = value),
    sync,
  }
}
