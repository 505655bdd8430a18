import { readConfig, readImagesConfig } from './config'
import { startViewer } from './document-viewer'
import { startImageViewer } from './image-viewer'
import { createStatus } from './status'
import { passVisitGate } from './visit-gate'

const app = document.getElementById('app') as HTMLElement
const images = readImagesConfig(app)
const status = createStatus(document.getElementById('status') as HTMLElement, app.dataset.download || null)
const firstPage = document.querySelector<HTMLImageElement>('#first-page img')
// Page 1 drawn by the server is on screen already: the viewer loads behind it, without a spinner over it.
status.loading(undefined, { quiet: firstPage !== null })
// The viewer's set-up is a long task on a slow device: it starts once page 1 has been painted, never before.
await new Promise<void>((resolve) => {
  const next = () => requestAnimationFrame(() => setTimeout(resolve, 0))
  if (!firstPage || firstPage.complete) return next()
  firstPage.addEventListener('load', next, { once: true })
  firstPage.addEventListener('error', next, { once: true })
})
if (passVisitGate(app, status)) {
  // A link that does not send its PDF shows the pages the server draws; any other, pdf.js over the PDF.
  if (images) startImageViewer(app, images, status)
  else startViewer(app, readConfig(app), status)
}
