import type { Status } from './status'

/** A reload asked for within this long is the one already tried. */
const RETRY_WINDOW_MS = 60_000

/**
 * A page of a link with a view limit served without a grant (`data-ungranted`): the request that brought it was
 * not counted as a view — a prefetch or prerender the browser made ahead, or a visit over the per-address
 * bound — so the server keeps the PDF's bytes closed to it. Once the reader really looks at the page (a
 * prerendered page only when it is shown), it is asked for once more as a plain navigation, which counts;
 * if that was tried already, the reader is told why the document does not open. Returns whether the viewer
 * may load the document.
 */
export function passVisitGate(app: HTMLElement, status: Status): boolean {
  if (!app.dataset.ungranted) return true
  const key = `pdfshare-reloaded:${location.pathname}`
  let triedAt = 0
  try {
    triedAt = Number(sessionStorage.getItem(key) ?? 0)
  } catch {
    // storage refused: try the reload at most this once either way
  }
  if (Date.now() - triedAt < RETRY_WINDOW_MS) {
    status.problem({ kind: 'not-counted' })
    return false
  }
  const reload = () => {
    try {
      sessionStorage.setItem(key, String(Date.now()))
    } catch {
      return status.problem({ kind: 'not-counted' })
    }
    location.reload()
  }
  if ((document as { prerendering?: boolean }).prerendering) document.addEventListener('prerenderingchange', reload, { once: true })
  else reload()
  return false
}
