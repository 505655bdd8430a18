/**
 * The share page's only script tag, a few hundred bytes. The viewer (pdf.js and ours, 650 KB) and pdf.js's
 * stylesheet (400 KB) are fetched from here at low priority, beside page 1, into the browser's cache, and used
 * once page 1 drawn by the server is on screen: compiled or parsed any earlier, they held back page 1's first
 * paint (docs/share-page.md, "Page 1 at once"). Without a drawn page 1 the viewer runs at once. A browser without
 * scripts fetches neither.
 */
const app = document.getElementById('app') as HTMLElement
const viewer = app.dataset.viewer as string
const firstPage = document.querySelector<HTMLImageElement>('#first-page img')
// pdf.js's stylesheet is applied before the viewer starts (main.ts): fetched from here, it is never a round trip
// after the viewer's own, also on a page without a drawn page 1.
if (app.dataset.pdfjsStyle) void warm(app.dataset.pdfjsStyle)
if (firstPage) {
  void warm(viewer)
  await shown(firstPage)
}
await import(viewer)

/** Fetches an asset into the browser's cache (its name carries its hash: cached for good), quietly. */
async function warm(url: string): Promise<void> {
  try {
    await (await fetch(url, { priority: 'low' } as RequestInit)).arrayBuffer()
  } catch {
    // The viewer fetches it again when it needs it, and says so if that fails.
  }
}

/**
 * Settles once the image has been painted: its Element Timing entry where the browser has them (Chromium), else
 * two frames after it loaded (or failed: a page 1 that failed must not stop the viewer); never later than 3 s.
 */
function shown(image: HTMLImageElement): Promise<void> {
  return new Promise<void>((resolve) => {
    setTimeout(resolve, 3000)
    // Failed before this ran: no paint and no event is coming.
    if (image.complete && image.naturalWidth === 0) return resolve()
    if (PerformanceObserver.supportedEntryTypes?.includes('element')) {
      new PerformanceObserver((list, observer) => {
        if (list.getEntries().some((entry) => (entry as PerformanceEntry & { identifier?: string }).identifier === 'first-page')) {
          observer.disconnect()
          setTimeout(resolve, 0)
        }
      }).observe({ type: 'element', buffered: true })
      image.addEventListener('error', () => resolve(), { once: true })
      return
    }
    const next = () => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))
    if (image.complete) return next()
    image.addEventListener('load', next, { once: true })
    image.addEventListener('error', next, { once: true })
  })
}

export {}
