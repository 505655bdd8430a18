import { readConfig } from './config'
import { startViewer } from './document-viewer'
import { createStatus } from './status'
import { passVisitGate } from './visit-gate'

const app = document.getElementById('app') as HTMLElement
const config = readConfig(app)
const status = createStatus(document.getElementById('status') as HTMLElement, config.downloadUrl)
// Page 1 drawn by the server is on screen already: pdf.js loads behind it, without a spinner over it.
status.loading(undefined, { quiet: document.getElementById('first-page') !== null })
if (passVisitGate(app, status)) startViewer(app, config, status)
