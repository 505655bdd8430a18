import './pdfjs-global' // must come before pdf_viewer.mjs
import { GlobalWorkerOptions, getDocument, AnnotationMode, PasswordResponses } from 'pdfjs-dist'
import { EventBus, LinkTarget, PDFFindController, PDFLinkService, PDFViewer } from 'pdfjs-dist/web/pdf_viewer.mjs'
import 'pdfjs-dist/web/pdf_viewer.css'
import type { ViewerConfig } from './config'
import { HttpRangeTransport } from './range-transport'
import { createFindBar } from './find-bar'
import { bindKeyboard } from './keyboard'
import { outlineOfPdf, showOutline } from './outline'
import { guardPages, type GuardedDocument } from './page-guard'
import { pageError } from './page-error'
import { startReadingReport } from './reading'
import type { Status } from './status'
import { createToolbar } from './toolbar'
import { startWatchdog, WATCHDOG_MS } from './watchdog'

/** The viewer of the page's PDF: pdf.js over range requests, the toolbar, find, and the reading reports. */
export function startViewer(app: HTMLElement, config: ViewerConfig, status: Status): void {
  GlobalWorkerOptions.workerSrc = `${config.pdfjsBase}pdf.worker.min.mjs`

  const eventBus = new EventBus()
  const linkService = new PDFLinkService({
    eventBus,
    externalLinkTarget: LinkTarget.BLANK,
    externalLinkRel: 'noopener noreferrer nofollow',
  })
  const findController = new PDFFindController({ eventBus, linkService })
  const container = document.getElementById('viewer-container') as HTMLDivElement
  const viewer = new PDFViewer({
    container,
    viewer: document.getElementById('viewer') as HTMLDivElement,
    eventBus,
    linkService,
    findController,
    // Links work and form fields are shown read-only; no JavaScript from the PDF ever runs (no scripting manager).
    annotationMode: AnnotationMode.ENABLE,
    // Sticky notes and file attachments show pdf.js's icons, served with its other assets.
    imageResourcesPath: `${config.pdfjsBase}images/`,
    textLayerMode: 1,
    removePageBorders: false,
  })
  linkService.setViewer(viewer)

  const toolbar = createToolbar(viewer)
  const find = createFindBar(eventBus)
  bindKeyboard(viewer, toolbar, find)

  // Nothing is observed or sent unless the page carries a reading token (see reading.ts).
  const reading = startReadingReport(app, container)

  let documentShown = false
  /** Page 1 as the server drew it (share page HTML), shown until pdf.js has drawn page 1 itself. */
  let firstPage = document.getElementById('first-page')
  // A page 1 the server could not give (a rare PDF PDFium cannot draw): pdf.js's spinner shows instead of a broken image.
  const firstImage = firstPage?.querySelector('img')
  const dropFirstPage = () => {
    if (!firstPage) return
    firstPage.remove()
    firstPage = null
    if (status.state === 'loading') status.loading()
  }
  if (firstImage?.complete && firstImage.naturalWidth === 0) dropFirstPage()
  else firstImage?.addEventListener('error', dropFirstPage, { once: true })
  let guarded: GuardedDocument | undefined
  eventBus.on('pagesinit', () => {
    guarded?.laidOut(viewer)
    // pdf.js scrolls to page 1's edge when it sets the zoom; under the server's page 1 the reader sees (and may
    // have scrolled) the page as laid out, which must not move.
    const scrolledTo = container.scrollTop
    viewer.currentScaleValue = window.innerWidth < 700 ? 'page-width' : 'auto'
    if (firstPage) container.scrollTop = scrolledTo
    toolbar.enable()
    toolbar.sync()
    documentShown = true
    status.ready()
    reading?.observe([...document.querySelectorAll<HTMLElement>('#viewer .page[data-page-number]')])
  })
  eventBus.on('pagechanging', toolbar.sync)
  // For tests and measurements: when page 1 was first drawn, in ms since navigation started.
  eventBus.on('pagerendered', ({ pageNumber, error }: { pageNumber: number; error?: unknown }) => {
    // pdf.js has drawn its own page 1 in the same place, or shows why it cannot: the server's drawing gives way.
    if (pageNumber === 1) dropFirstPage()
    if (error) return markBrokenPage(pageNumber)
    if (pageNumber === 1 && !app.dataset.firstPageMs) app.dataset.firstPageMs = String(Math.round(performance.now()))
  })
  eventBus.on('scalechanging', toolbar.sync)

  /** A page pdf.js cannot read or draw shows why in its own place; the other pages stay usable. */
  function markBrokenPage(pageNumber: number): void {
    const div = viewer.getPageView(pageNumber - 1)?.div
    if (div && !div.querySelector('.page-error')) div.append(pageError(pageNumber, config.downloadUrl))
  }

  /** Back to where the reader was before a network problem: the document, or still loading it. */
  const resume = () => (documentShown ? status.ready() : status.loading(undefined, { quiet: firstPage !== null }))
  const transport = new HttpRangeTransport(config.fileUrl, config.fileSize, config.etag, {
    onNetworkError: () => {
      if (status.state !== 'error') status.problem({ kind: 'network', retry })
    },
    onReplaced: () => status.problem({ kind: 'replaced' }),
  })
  function retry(): void {
    resume()
    watchdog.restart()
    transport.retry(WATCHDOG_MS)
  }
  const watchdog = startWatchdog({
    status,
    transport,
    onStalled: () => status.problem({ kind: 'stalled', seconds: WATCHDOG_MS / 1000, retry }),
    onSlow: () => status.problem({ kind: 'slow', seconds: WATCHDOG_MS / 1000 }),
  })

  const loadingTask = getDocument({
    // Fetch only what is needed, in 64 KiB ranges: page 1 of a large PDF appears long before the whole file arrives.
    range: transport,
    rangeChunkSize: 65536,
    disableAutoFetch: true,
    cMapUrl: `${config.pdfjsBase}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${config.pdfjsBase}standard_fonts/`,
    wasmUrl: `${config.pdfjsBase}wasm/`,
    iccUrl: `${config.pdfjsBase}iccs/`,
    enableXfa: false,
    // pdf.js ≥ 4.2.67 no longer evaluates font programs; said explicitly all the same.
    ...({ isEvalSupported: false } as object),
  })
  // pdf.js asks again after a wrong password; the password is checked and used in the browser only.
  loadingTask.onPassword = (updatePassword: (password: string) => void, reason: number) => {
    status.problem({
      kind: 'password',
      incorrect: reason === PasswordResponses.INCORRECT_PASSWORD,
      submit: (password) => {
        status.loading()
        watchdog.restart()
        updatePassword(password)
      },
    })
  }

  async function open(): Promise<void> {
    const pdf = await loadingTask.promise
    app.dataset.pages = String(pdf.numPages)
    if (pdf.numPages === 0) return status.problem({ kind: 'no-pages' })
    guarded = await guardPages(pdf, markBrokenPage)
    if (!guarded) return status.problem({ kind: 'unreadable' })
    guarded.show(viewer)
    linkService.setDocument(guarded.document, null)
    // The PDF's bookmarks as a sidebar (outline.ts): none, or an outline pdf.js cannot read, shows none.
    const outline = await outlineOfPdf(pdf).catch(() => [])
    showOutline(outline, {
      goTo: (page) => (viewer.currentPageNumber = page),
      refit: () => {
        // A preset (fit width, auto) is measured again when set: set as it is.
        const preset = viewer.currentScaleValue
        if (Number.isNaN(Number(preset))) viewer.currentScaleValue = preset
      },
    })
  }

  open().catch((error: unknown) => {
    switch ((error as { name?: string }).name) {
      case 'AbortException':
        return
      // The file's fault: pdf.js could not parse it (errors of its worker arrive as UnknownErrorException).
      case 'InvalidPDFException':
      case 'UnknownErrorException':
      case 'FormatError':
        return status.problem({ kind: 'unreadable' })
      // pdf.js's own network layer (not used for the PDF's bytes, which come through the transport).
      case 'ResponseException':
        return status.problem({ kind: 'network', retry: () => location.reload() })
      // A plain Error from the main thread: the worker could not be set up.
      default:
        console.error('the viewer could not start', error)
        return status.problem({ kind: 'no-viewer' })
    }
  })
}
