import { readConfig, readImagesConfig } from './config'
import { startViewer } from './document-viewer'
import { startImageViewer } from './image-viewer'
import { createStatus } from './status'
import { passVisitGate } from './visit-gate'

const app = document.getElementById('app') as HTMLElement
const images = readImagesConfig(app)
const status = createStatus(document.getElementById('status') as HTMLElement, images ? null : app.dataset.download || null)
// Page 1 drawn by the server is on screen already: the viewer loads behind it, without a spinner over it.
status.loading(undefined, { quiet: document.getElementById('first-page') !== null })
if (passVisitGate(app, status)) {
  // A link that does not send its PDF shows the pages the server draws; any other, pdf.js over the PDF.
  if (images) startImageViewer(app, images, status)
  else startViewer(app, readConfig(app), status)
}
