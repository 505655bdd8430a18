import './pdfjs-global' // must come before pdf_viewer.mjs
import { GlobalWorkerOptions, getDocument, AnnotationMode } from 'pdfjs-dist'
import { EventBus, LinkTarget, PDFFindController, PDFLinkService, PDFViewer } from 'pdfjs-dist/web/pdf_viewer.mjs'
import 'pdfjs-dist/web/pdf_viewer.css'
import './viewer.css'
import { readConfig } from './config'
import { HttpRangeTransport } from './range-transport'
import { createFindBar } from './find-bar'
import { bindKeyboard } from './keyboard'
import { createStatus } from './status'
import { createToolbar } from './toolbar'

const app = document.getElementById('app') as HTMLElement
const config = readConfig(app)
const status = createStatus(document.getElementById('status') as HTMLElement)
status.loading()

GlobalWorkerOptions.workerSrc = `${config.pdfjsBase}pdf.worker.min.mjs`

const eventBus = new EventBus()
const linkService = new PDFLinkService({ eventBus, externalLinkTarget: LinkTarget.BLANK, externalLinkRel: 'noopener noreferrer nofollow' })
const findController = new PDFFindController({ eventBus, linkService })
const viewer = new PDFViewer({
  container: document.getElementById('viewer-container') as HTMLDivElement,
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

eventBus.on('pagesinit', () => {
  viewer.currentScaleValue = window.innerWidth < 700 ? 'page-width' : 'auto'
  toolbar.enable()
  toolbar.sync()
  status.ready()
})
eventBus.on('pagechanging', toolbar.sync)
// For tests and measurements: when page 1 was first drawn, in ms since navigation started.
eventBus.on('pagerendered', ({ pageNumber }: { pageNumber: number }) => {
  if (pageNumber === 1 && !app.dataset.firstPageMs) app.dataset.firstPageMs = String(Math.round(performance.now()))
})
eventBus.on('scalechanging', toolbar.sync)

const transport = new HttpRangeTransport(config.fileUrl, config.fileSize, config.etag, (message) => status.error(message, config.downloadUrl))
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
loadingTask.onPassword = () => {
  status.error('This PDF is protected with a password, which this viewer does not ask for.', config.downloadUrl)
  void loadingTask.destroy()
}

try {
  const pdf = await loadingTask.promise
  viewer.setDocument(pdf)
  linkService.setDocument(pdf, null)
  app.dataset.pages = String(pdf.numPages)
} catch (error) {
  const name = (error as { name?: string }).name
  if (name !== 'PasswordException') {
    const message = name === 'InvalidPDFException' ? 'The file is damaged or is not a valid PDF.' : 'The file could not be loaded. Check your connection and reload the page.'
    status.error(message, config.downloadUrl)
  }
}
