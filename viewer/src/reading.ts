/**
 * Reading reports: which pages were on screen, and for how long, sent to the server in small batches. Only
 * when the page carries a reading token (`data-visit`: a counted visit of a reader who did not ask not to be
 * tracked with Sec-GPC or DNT); otherwise nothing is observed and nothing is sent.
 *
 * A page is on screen when at least half of it is visible, or when it fills at least half of the viewport (a
 * zoomed-in page). Time is counted only while the tab is visible and is shared among the pages on screen, so a
 * visit never reports more time than it lasted. Batches go every 15 s, and with `navigator.sendBeacon` when the
 * tab is hidden or the page is left (the browser delivers a beacon after the page is gone).
 */
const FLUSH_MS = 15_000
/** The server's bounds of one batch (src/core/share/record-reading.ts). */
const PAGES_PER_BATCH = 50
const MAX_MS_PER_PAGE = 600_000

export type ReadingReport = { observe(pages: HTMLElement[]): void }

export function startReadingReport(app: HTMLElement, container: HTMLElement): ReadingReport | undefined {
  const token = app.dataset.visit
  const url = app.dataset.reading
  if (!token || !url) return undefined

  const onScreen = new Set<number>()
  const pending = new Map<number, number>()
  let showing = document.visibilityState === 'visible'
  let last = performance.now()
  /** Adds the time since the last call to the pages on screen, if the tab was visible meanwhile. */
  const accrue = () => {
    const now = performance.now()
    const elapsed = now - last
    last = now
    if (!showing || onScreen.size === 0) return
    for (const page of onScreen) pending.set(page, (pending.get(page) ?? 0) + elapsed / onScreen.size)
  }
  const send = (leaving: boolean) => {
    accrue()
    const pages = [...pending].filter(([, ms]) => ms >= 1).map(([page, ms]) => ({ page, ms: Math.min(MAX_MS_PER_PAGE, Math.round(ms)) }))
    pending.clear()
    for (let i = 0; i < pages.length; i += PAGES_PER_BATCH) {
      const body = JSON.stringify({ visit: token, pages: pages.slice(i, i + PAGES_PER_BATCH) })
      // A string beacon goes as text/plain, which the server accepts; fetch is the fallback and the periodic way.
      if (leaving && navigator.sendBeacon?.(url, body)) continue
      fetch(url, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain' } }).catch(() => {})
    }
  }

  const steps = Array.from({ length: 21 }, (_, i) => i / 20)
  const observer = new IntersectionObserver(
    (entries) => {
      accrue()
      for (const entry of entries) {
        const page = Number((entry.target as HTMLElement).dataset.pageNumber)
        const viewport = entry.rootBounds?.height ?? container.clientHeight
        const fillsViewport = viewport > 0 && entry.intersectionRect.height / viewport >= 0.5
        if (entry.isIntersecting && (entry.intersectionRatio >= 0.5 || fillsViewport)) onScreen.add(page)
        else onScreen.delete(page)
      }
    },
    { root: container, threshold: steps },
  )

  document.addEventListener('visibilitychange', () => {
    accrue()
    showing = document.visibilityState === 'visible'
    if (!showing) send(true)
  })
  window.addEventListener('pagehide', () => send(true))
  setInterval(() => send(false), FLUSH_MS)

  return {
    observe(pages) {
      for (const page of pages) observer.observe(page)
    },
  }
}
