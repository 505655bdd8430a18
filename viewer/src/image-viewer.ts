import { EventBus } from 'pdfjs-dist/web/pdf_viewer.mjs'
import 'pdfjs-dist/web/pdf_viewer.css'
import { CSS_PX_PER_POINT, MAX_AUTO_SCALE, PAGE_BORDERS_PX, PAGE_GUTTER_PX, PAGE_WIDTHS } from '../../src/shared/page-layout'
import type { ImagesConfig } from './config'
import { createFindBar } from './find-bar'
import { startImageFind } from './image-find'
import { copyWordsOf } from './image-copy'
import { layLinks, layText } from './image-layers'
import type { ImagePage, PageLink, Word } from './image-page'
import { bindKeyboard } from './keyboard'
import { type OutlineEntry, showOutline } from './outline'
import { pageError } from './page-error'
import type { PageViewer } from './page-viewer'
import { startReadingReport } from './reading'
import type { Status } from './status'
import { createToolbar } from './toolbar'
import { t } from './messages'

/** Times a page image or text the server was too busy for is asked for again. */
const RETRIES = 4

/**
 * The viewer of a link that does not send its PDF: every page is an image drawn by the server
 * (`/s/:slug/pages/:n?w=`, at the width of the ladder this screen needs, fetched as the page nears the screen and
 * again at the next width up when zoomed in), with the page's text (`/pages/:n/text`) laid over it, invisible,
 * for find, selection and screen readers. Laid out as pdf.js lays out its pages, so toolbar, keyboard, zoom steps
 * and reading reports work the same.
 */
export function startImageViewer(app: HTMLElement, config: ImagesConfig, status: Status): void {
  const container = document.getElementById('viewer-container') as HTMLDivElement
  const holder = document.getElementById('viewer') as HTMLDivElement
  const sizes = config.sizes
  const problem = config.problem === 'password' ? 'password-on-server' : !sizes ? 'unreadable' : sizes.length === 0 ? 'no-pages' : null
  if (problem || !sizes) {
    status.problem({ kind: problem ?? 'unreadable' })
    return
  }
  app.dataset.pages = String(sizes.length)
  // A copied selection of the pages' words keeps its spaces and line breaks (image-copy.ts).
  container.addEventListener('copy', copyWordsOf(container))

  let scale = 1
  let scaleValue = 'auto'
  const pages: ImagePage[] = sizes.map((_, index) => {
    const div = document.createElement('div')
    div.className = 'page image-page'
    div.dataset.pageNumber = String(index + 1)
    const img = document.createElement('img')
    img.alt = t('viewer.pageAlt', { page: index + 1 })
    img.decoding = 'async'
    img.draggable = false
    // A page the renderers were too busy for (503) is asked for again, a little later each time; one that cannot
    // be drawn (422), or still missing after that, shows why in its place.
    let tries = 0
    img.addEventListener('error', async () => {
      const url = img.src
      const answer = await fetch(url).catch(() => undefined)
      if ((answer === undefined || answer.status === 503) && tries++ < RETRIES) {
        setTimeout(() => {
          if (img.src === url) img.src = `${url.split('&try=')[0]}&try=${tries}`
        }, 1000 * tries)
        return
      }
      if (!div.querySelector('.page-error')) div.append(pageError(index + 1, null))
    })
    div.append(img)
    holder.append(div)
    return { number: index + 1, div, img }
  })

  /** The ladder's width for a page drawn `cssWidth` CSS pixels wide on this screen. */
  const widthFor = (cssWidth: number) => PAGE_WIDTHS.find((width) => width >= cssWidth * devicePixelRatio) ?? PAGE_WIDTHS.at(-1)!
  const show = (page: ImagePage) => {
    const wanted = widthFor(page.div.clientWidth)
    const current = Number(page.img.dataset.width ?? 0)
    if (wanted <= current) return
    page.img.dataset.width = String(wanted)
    page.img.src = `${config.pagesUrl}${page.number}?w=${wanted}`
    if (!page.text) {
      const laid = textOf(`${config.pagesUrl}${page.number}/text`)
      page.text = laid.then(({ words }) => words)
      void laid.then(({ words, links }) => {
        layText(page, words)
        layLinks(page, links, (number) => (viewer.currentPageNumber = number), pages.length)
      })
    }
  }
  const near = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) if (entry.isIntersecting) show(pages[Number((entry.target as HTMLElement).dataset.pageNumber) - 1]!)
    },
    { root: container, rootMargin: '100% 0px' },
  )

  const scaleOf = (value: string): number => {
    const first = sizes[0]!
    const width = (container.clientWidth - PAGE_GUTTER_PX) / (first.width * CSS_PX_PER_POINT)
    const height = (container.clientHeight - 5) / (first.height * CSS_PX_PER_POINT)
    if (value === 'page-width') return width
    if (value === 'page-fit') return Math.min(width, height)
    if (value === 'auto') return Math.min(MAX_AUTO_SCALE, first.width <= first.height ? width : Math.min(width, height))
    const number = Number(value)
    return Number.isFinite(number) && number > 0 ? number : 1
  }
  const layout = (value: string) => {
    const keep = currentPage()
    const offset = container.scrollTop - pages[keep - 1]!.div.offsetTop
    const before = scale
    scaleValue = value
    scale = Math.max(0.1, Math.min(10, scaleOf(value)))
    for (const [index, page] of pages.entries()) {
      const size = sizes[index]!
      page.div.style.width = `${Math.round(size.width * CSS_PX_PER_POINT * scale)}px`
      page.div.style.height = `${Math.round(size.height * CSS_PX_PER_POINT * scale)}px`
      page.div.style.setProperty('--page-height', `${Math.round(size.height * CSS_PX_PER_POINT * scale) - PAGE_BORDERS_PX}px`)
    }
    container.scrollTop = pages[keep - 1]!.div.offsetTop + offset * (scale / before)
    for (const page of pages) if (page.img.dataset.width) show(page) // sharper images for a larger zoom
    toolbar.sync()
  }

  let current = 1
  function currentPage(): number {
    const middle = container.scrollTop + container.clientHeight / 3
    let found = 1
    for (const page of pages) {
      if (page.div.offsetTop > middle) break
      found = page.number
    }
    return found
  }
  const viewer: PageViewer = {
    get pagesCount() {
      return pages.length
    },
    get currentPageNumber() {
      return current
    },
    set currentPageNumber(number) {
      const page = pages[Math.min(pages.length, Math.max(1, Math.round(number))) - 1]!
      container.scrollTop = page.div.offsetTop - 10
      current = page.number
      toolbar.sync()
    },
    get currentScale() {
      return scale
    },
    get currentScaleValue() {
      return scaleValue
    },
    set currentScaleValue(value) {
      layout(value)
    },
    nextPage: () => (viewer.currentPageNumber = current + 1),
    previousPage: () => (viewer.currentPageNumber = current - 1),
  }

  const eventBus = new EventBus()
  const toolbar = createToolbar(viewer)
  const find = createFindBar(eventBus)
  bindKeyboard(viewer, toolbar, find)
  startImageFind(
    eventBus,
    pages,
    (page) => show(page),
    (page) => (viewer.currentPageNumber = page),
  )
  container.addEventListener(
    'scroll',
    () => {
      const now = currentPage()
      if (now === current) return
      current = now
      toolbar.sync()
    },
    { passive: true },
  )
  const refit = () => {
    if (Number.isNaN(Number(scaleValue))) layout(scaleValue)
  }
  window.addEventListener('resize', refit)

  layout(window.innerWidth < 700 ? 'page-width' : 'auto')
  container.scrollTop = 0
  for (const page of pages) near.observe(page.div)
  toolbar.enable()
  toolbar.sync()
  status.ready()
  // Page 1 as the share page named it gives way once this viewer's own page 1 is on screen.
  const firstPage = document.getElementById('first-page')
  if (firstPage) {
    const drop = () => firstPage.remove()
    pages[0]!.img.addEventListener('load', drop, { once: true })
    pages[0]!.img.addEventListener('error', drop, { once: true })
  }
  pages[0]!.img.addEventListener('load', () => (app.dataset.firstPageMs ||= String(Math.round(performance.now()))), { once: true })
  startReadingReport(app, container)?.observe(pages.map((page) => page.div))
  // The PDF's bookmarks, read by the server (`/outline`, beside `/pages/`): none, or none readable, shows no sidebar.
  void outlineOf(new URL('../outline', new URL(config.pagesUrl, location.href)).href).then((entries) =>
    showOutline(entries, { goTo: (number) => (viewer.currentPageNumber = number), refit }),
  )
}

/** The outline the server read; none when there is none, or it cannot be had. */
async function outlineOf(url: string): Promise<OutlineEntry[]> {
  const entries = await jsonOf(url)
  return Array.isArray(entries) ? (entries as OutlineEntry[]) : []
}

/** A page's words and links; none when they cannot be read. */
async function textOf(url: string): Promise<{ words: Word[]; links: PageLink[] }> {
  const data = (await jsonOf(url)) as { words?: Word[]; links?: PageLink[] } | undefined
  return { words: data?.words ?? [], links: data?.links ?? [] }
}

/** What the server read of the PDF (a page's text, the outline); asked for again while the renderers are busy (503). */
async function jsonOf(url: string): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(url)
      if (response.ok) return await response.json()
      if (response.status !== 503 || attempt >= RETRIES) return undefined
    } catch {
      if (attempt >= RETRIES) return undefined
    }
    await new Promise((resolve) => setTimeout(resolve, 1000 * (attempt + 1)))
  }
}
