import { readConfig } from './config'
import { startViewer } from './document-viewer'
import { createStatus } from './status'
import { passVisitGate } from './visit-gate'

const app = document.getElementById('app') as HTMLElement
const config = readConfig(app)
const status = createStatus(document.getElementById('status') as HTMLElement, config.downloadUrl)
status.loading()
if (passVisitGate(app, status)) startViewer(app, config, status)
