import { readConfig, readImagesConfig } from './config'
import { startViewer } from './document-viewer'
import { startImageViewer } from './image-viewer'
import { createStatus } from './status'
import { applyPdfjsStyle } from './pdfjs-style'
import { passVisitGate } from './visit-gate'

const app = document.getElementById('app') as HTMLElement
const images = readImagesConfig(app)
const status = createStatus(document.getElementById('status') as HTMLElement, app.dataset.download || null)
const firstPage = document.querySelector<HTMLImageElement>('#first-page img')
// Page 1 drawn by the server is on screen already: the viewer loads behind it, without a spinner over it.
status.loading(undefined, { quiet: firstPage !== null })
// This runs once page 1 drawn by the server has been painted (boot.ts): the viewer's set-up never holds it back.
// pdf.js's stylesheet is large and page 1 does not need it: fetched beside page 1 (boot.ts), applied only now.
await applyPdfjsStyle(app.dataset.pdfjsStyle)
if (passVisitGate(app, status)) {
  // A link that does not send its PDF shows the pages the server draws; any other, pdf.js over the PDF.
  if (images) startImageViewer(app, images, status)
  else startViewer(app, readConfig(app), status)
}
